import '@ant-design/v5-patch-for-react-19';
import 'antd/dist/reset.css';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import App from './App';

dayjs.locale('zh-cn');

const root = document.getElementById('root');
if (!root) throw new Error('页面缺少 #root 节点');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

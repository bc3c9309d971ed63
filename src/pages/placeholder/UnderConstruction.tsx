import { ToolOutlined } from '@ant-design/icons';
import { Result } from 'antd';

/** A menu page whose screen is not built yet: says so plainly instead of showing a blank page. */
// The component path is for administrators (菜单管理 shows it), never for the user who opened the page.
export default function UnderConstruction({ title }: { title: string; component?: string }) {
  return <Result icon={<ToolOutlined style={{ color: '#409EFF' }} />} title={`${title} · 建设中`} subTitle="该页面正在建设中，敬请期待" />;
}

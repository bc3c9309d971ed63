import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';

const TEXT = {
  '404': { title: '404', sub: '抱歉，您访问的页面不存在。请检查地址是否正确，或返回首页。' },
  '401': { title: '401', sub: '抱歉，您没有访问该页面的权限（未授权）。如需访问，请联系管理员。' },
  '405': { title: '405', sub: '抱歉，您的账号没有开通该页面的权限。如需使用，请联系管理员授权。' },
} as const;

/** Not-found, 401 and 405 pages (spec §2.1). */
export default function ErrorPage({ status }: { status: keyof typeof TEXT }) {
  const navigate = useNavigate();
  const t = TEXT[status];
  return (
    <Result
      status={status === '404' ? '404' : '403'}
      title={t.title}
      subTitle={t.sub}
      extra={
        <Button type="primary" onClick={() => navigate('/index')}>
          返回首页
        </Button>
      }
    />
  );
}

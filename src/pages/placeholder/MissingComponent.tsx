import { Result } from 'antd';

/** A menu points at a component string the console does not know: say which, so an administrator can fix the menu. */
export default function MissingComponent({ title, component }: { title: string; component: string }) {
  return <Result status="warning" title="页面不存在" subTitle={`菜单「${title}」配置的组件 ${component} 不存在，请在菜单管理中检查组件路径`} />;
}

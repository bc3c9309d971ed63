import MissingComponent from '@/pages/placeholder/MissingComponent';
import UnderConstruction from '@/pages/placeholder/UnderConstruction';
import { resolveView } from './componentRegistry';

/** A menu route's page: the built view, 建设中 for a planned screen, 页面不存在 for an unknown component string. */
export function MenuView({ title, component }: { title: string; component: string }) {
  const view = resolveView(component);
  if (view.kind === 'view') return <view.Page />;
  if (view.kind === 'planned') return <UnderConstruction title={title} component={component} />;
  return <MissingComponent title={title} component={component} />;
}

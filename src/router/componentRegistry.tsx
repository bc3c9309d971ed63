import { SEEDED_COMPONENTS } from '@common/menu/seededComponents';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { resourceForComponent } from '@/resources';
import { enginePageModule } from './pageModules';
import { readyLazy } from './readyLazy';
import { GATED_ROUTES } from './staticRoutes';

type Page = LazyExoticComponent<ComponentType>;

/**
 * Component strings from the server menu (RuoYi view paths such as 'system/user/index') → lazily loaded pages.
 * Bespoke modules register in VIEWS; a component string that a schema names in x-menu.component opens the schema
 * engine's list page of that resource (src/resources/, runtime ones too); VIEWS wins over a schema for the same string.
 */
const VIEWS: Record<string, () => Promise<{ default: ComponentType }>> = {
  index: () => import('@/modules/home'),
  // 平台中心 (src/modules/home/): 统计 and 帮助中心; 版本管理 is the schema screen of schemas/home/sys_version_log.json
  'statistics/index': () => import('@/modules/home/statistics'),
  'helpCenter/index': () => import('@/modules/home/helpCenter'),
  'monitor/cache/index': () => import('@/modules/monitor/cache'),
  'monitor/cache/list': () => import('@/modules/monitor/cacheList'),
  'monitor/druid/index': () => import('@/modules/monitor/druid'),
  'monitor/server/index': () => import('@/modules/monitor/server'),
  'monitor/overview/index': () => import('@/modules/monitor/overview'),
  'tool/swagger/index': () => import('@/modules/tool/swagger'),
  'tool/gen/editTable': () => import('@/modules/tool/gen/editTable'),
  'Filling/index': () => import('@/modules/volunteer/filling'),
  // 学生志愿, 志愿保存: schemas/volunteer/vol_student.json, vol_saved_plan.json (overrides in src/modules/volunteer/students/)
  'leader/volunteerAdvance/index': () => import('@/modules/volunteer/advance'),
  // 志愿审核, 领导审批, 预约管理: schemas/volunteer/ (overrides in src/modules/volunteer/approval/)
  'majorRecommend/index': () => import('@/modules/volunteer/approval/majorRecommend'),
  'system/platform/index': () => import('@/modules/system/platform'),
  'system/registerSettings/index': () => import('@/modules/system/settings/register'),
  'system/evaluationSettings/index': () => import('@/modules/system/settings/evaluation'),
  'system/auditConfiguration/index': () => import('@/modules/system/settings/audit'),
  'system/organization/index': () => import('@/modules/system/organization'),
  'system/authority/index': () => import('@/modules/system/authority'),
  'system/userData/index': () => import('@/modules/system/userData'),
  'system/user/authRole': () => import('@/modules/system/user/AuthRole'),
  'system/role/authUser': () => import('@/modules/system/role/AuthUserPage'),
  // 会员卡 (src/modules/customer/); 客户管理's screens are schemas/customer/ (overrides in src/modules/customer/)
  'card/release/index': () => import('@/modules/customer/release'),
  'card/date/index': () => import('@/modules/customer/date'),
  // 财务管理 › 对账 (账户余额, 收款钱包, 付款钱包, 提现, 发票管理, 充值管理, 账户续费, 优惠券 are schemas/finance/ screens)
  'finance/reconcile/index': () => import('@/modules/finance/reconcile'),
};

/** View paths of the product's own menu (the seeded tree): known screens, some not built yet (→ 建设中). */
const PLANNED = new Set<string>(SEEDED_COMPONENTS);
// The permission-gated hidden pages (spec §2.1) are screens of the product too.
for (const g of GATED_ROUTES) PLANNED.add(g.component);

export type ResolvedView = { kind: 'view'; Page: Page } | { kind: 'planned' } | { kind: 'unknown' };

const cache = new Map<string, Page>();
const normalise = (component: string) => component.replace(/^\//, '').replace(/\.(vue|tsx)$/, '');

/** Whether a bespoke page (VIEWS) answers this component string, winning over any schema (tests count the screens). */
export const isHandWritten = (component: string): boolean => Object.hasOwn(VIEWS, normalise(component));

/**
 * 'view': a built page; 'planned': a screen of the product not built yet (shows 建设中);
 * 'unknown': a component string nobody knows (a typo in menu management) — shows 页面不存在 naming it.
 */
export function resolveView(component: string): ResolvedView {
  const key = normalise(component);
  const loader = VIEWS[key];
  if (loader) {
    let Page = cache.get(key);
    if (!Page) {
      Page = lazy(loader);
      cache.set(key, Page);
    }
    return { kind: 'view', Page };
  }
  const resource = resourceForComponent(key);
  if (resource) {
    let Page = cache.get(key);
    if (!Page) {
      const name = resource.name;
      // Without suspending when the engine's page was prefetched (src/router/prefetchPages.tsx): see readyLazy.ts.
      Page = readyLazy(enginePageModule, (m) => () => <m.ResourcePage name={name} />);
      cache.set(key, Page);
    }
    return { kind: 'view', Page };
  }
  return PLANNED.has(key) ? { kind: 'planned' } : { kind: 'unknown' };
}

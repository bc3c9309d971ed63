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
  // 平台中心 (src/modules/home/): 统计 and 帮助中心; 版本管理 is the schema screen of schemas/sys_version_log.json
  'statistics/index': () => import('@/modules/home/statistics'),
  'helpCenter/index': () => import('@/modules/home/helpCenter'),
  'monitor/online/index': () => import('@/modules/monitor/online'),
  'monitor/cache/index': () => import('@/modules/monitor/cache'),
  'monitor/cache/list': () => import('@/modules/monitor/cacheList'),
  'monitor/druid/index': () => import('@/modules/monitor/druid'),
  'monitor/server/index': () => import('@/modules/monitor/server'),
  'monitor/overview/index': () => import('@/modules/monitor/overview'),
  'tool/swagger/index': () => import('@/modules/tool/swagger'),
  'tool/gen/index': () => import('@/modules/tool/gen'),
  'tool/gen/editTable': () => import('@/modules/tool/gen/editTable'),
  'Filling/index': () => import('@/modules/volunteer/filling'),
  'volunteer/index': () => import('@/modules/volunteer/students'),
  'leader/volunteerAdvance/index': () => import('@/modules/volunteer/advance'),
  'savevolunteer/index': () => import('@/modules/volunteer/saved'),
  'Examine/index': () => import('@/modules/approval/examine'),
  'leader/AdvanceApproval/index': () => import('@/modules/approval/advanceApproval'),
  'appointment/index': () => import('@/modules/approval/appointment'),
  'majorRecommend/index': () => import('@/modules/approval/majorRecommend'),
  'system/platform/index': () => import('@/modules/system/platform'),
  'system/registerSettings/index': () => import('@/modules/system/settings/register'),
  'system/evaluationSettings/index': () => import('@/modules/system/settings/evaluation'),
  'system/auditConfiguration/index': () => import('@/modules/system/settings/audit'),
  'system/menuConfig/index': () => import('@/modules/system/menuConfig'),
  'system/organization/index': () => import('@/modules/system/organization'),
  'system/authority/index': () => import('@/modules/system/authority'),
  'system/userData/index': () => import('@/modules/system/userData'),
  'system/user/authRole': () => import('@/modules/system/user/AuthRole'),
  'system/role/authUser': () => import('@/modules/system/role/AuthUserPage'),
  // 会员卡 and 用户管理 (src/modules/customer/)
  'card/release/index': () => import('@/modules/customer/release'),
  'card/record/index': () => import('@/modules/customer/record'),
  'card/date/index': () => import('@/modules/customer/date'),
  'card/two/index': () => import('@/modules/customer/two'),
  'manage/userList/index': () => import('@/modules/customer/userList'),
  'manage/recycle/index': () => import('@/modules/customer/recycle'),
  'manage/appraisal/index': () => import('@/modules/customer/appraisal'),
  'manage/clientData/index': () => import('@/modules/customer/clientData'),
  'manage/memo/index': () => import('@/modules/customer/memo'),
  'manage/message/index': () => import('@/modules/customer/message'),
  // 财务管理 › ledger (src/modules/finance/: 账户余额, 收款钱包, 付款钱包, 提现, 发票管理)
  'finance/balance/index': () => import('@/modules/finance/balance'),
  'finance/collectionWallet/index': () => import('@/modules/finance/collectionWallet'),
  'finance/paymentWallet/index': () => import('@/modules/finance/paymentWallet'),
  'finance/withdraw/index': () => import('@/modules/finance/withdraw'),
  'finance/invoice/index': () => import('@/modules/finance/invoice'),
  // 财务管理 › payments (src/modules/finance/: 充值管理, 账户续费, 优惠券, 对账)
  'finance/rechargeManage/index': () => import('@/modules/finance/rechargeManage'),
  'finance/renewal/index': () => import('@/modules/finance/renewal'),
  'finance/coupon/index': () => import('@/modules/finance/coupon'),
  'finance/reconcile/index': () => import('@/modules/finance/reconcile'),
  // 服务中心 work orders (src/modules/service/); the other 服务中心 pages are schemas (schemas/service/).
  'serviceCenter/submitWorkOrder/index': () => import('@/modules/service/submitWorkOrder'),
  'serviceCenter/workOrder/index': () => import('@/modules/service/workOrder'),
};

/** View paths of the product's own menu (the seeded tree): known screens, some not built yet (→ 建设中). */
const PLANNED = new Set<string>(SEEDED_COMPONENTS);
// The permission-gated hidden pages (spec §2.1) are screens of the product too.
for (const g of GATED_ROUTES) PLANNED.add(g.component);

export type ResolvedView = { kind: 'view'; Page: Page } | { kind: 'planned' } | { kind: 'unknown' };

const cache = new Map<string, Page>();
const normalise = (component: string) => component.replace(/^\//, '').replace(/\.(vue|tsx)$/, '');

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

import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { FIGURES, type Statistics } from '../../common/home/statistics.js';
import type { RoutePermission } from '../http/context.js';
import { fail, ok } from '../http/envelope.js';
import { requestParams } from '../http/params.js';
import { actorOf } from '../security/actor.js';
import { NO_STORE_ROWS } from '../security/storeScope.js';
import { readDays, totalsOf } from './daily.js';
import { dayKey, dayNo, parseDay } from './days.js';
import { getFastPath, saveFastPath } from './fastPath.js';
import { helpArticles } from './help.js';
import { registerHomeJobs } from './jobs.js';
import { PageViewCounter } from './pageViews.js';
import { pageViewsByDay, platformFigures } from './platformFigures.js';
import { tabList } from './tabs.js';
import { todoList } from './todo.js';
import { versionRoutes } from './versions.js';

/** 统计 (the page and the home charts); seeded for admin and 机构负责人 (server/db/seed/menus.ts). */
export const STATISTICS_PERMISSION = 'home:statistics:list';
/** The longest range one statistics call covers. */
export const MAX_RANGE_DAYS = 366;
const DEFAULT_RANGE_DAYS = 30;

/** Is this answer a page view (docs/home.md): an open of the console or app (platformInfo), or a page of /site/. */
function isPageView(request: FastifyRequest, status: number): boolean {
  if (status >= 400) return false;
  const url = request.routeOptions.url ?? '';
  if (url === '/appv2/api/index/platformInfo') return true;
  return request.method === 'GET' && (url === '/site' || url.startsWith('/site/')) && !/\.[a-z0-9]+$/i.test(request.url.split('?')[0]);
}

type Params = Record<string, unknown>;
/** Statistics range: beginDate / endDate (YYYY-MM-DD, China time); default the last `days` (30) days up to today. */
function range(p: Params, now: number): { fromNo: number; toNo: number } {
  const today = dayNo(now);
  const toNo = p.endDate == null || p.endDate === '' ? today : parseDay(p.endDate);
  if (toNo === undefined) throw fail('结束日期格式应为 YYYY-MM-DD');
  const span = p.days == null || p.days === '' ? DEFAULT_RANGE_DAYS : Number(p.days);
  if (!Number.isInteger(span) || span < 1 || span > MAX_RANGE_DAYS) throw fail(`统计天数应在 1 到 ${MAX_RANGE_DAYS} 之间`);
  const fromNo = p.beginDate == null || p.beginDate === '' ? toNo - span + 1 : parseDay(p.beginDate);
  if (fromNo === undefined) throw fail('开始日期格式应为 YYYY-MM-DD');
  if (toNo < fromNo) throw fail('结束日期不能早于开始日期');
  if (toNo - fromNo + 1 > MAX_RANGE_DAYS) throw fail(`统计范围最多 ${MAX_RANGE_DAYS} 天`);
  return { fromNo, toNo };
}

/**
 * The home module (server/home/README.md): 首页 to-dos and platform figures, statistics by day, 快捷菜单, dashboard
 * tabs, page-view counting. Registered without encapsulation (fastify-plugin) so the page-view hook sees every route.
 */
async function home(app: FastifyInstance) {
  const db = app.db.kysely;
  const counter = new PageViewCounter(db, 5000, (err) => app.log.warn({ err }, '访问量写入失败，稍后重试'));
  registerHomeJobs();
  app.addHook('onReady', async () => counter.start());
  app.addHook('onClose', async () => counter.stop());
  app.addHook('onResponse', async (request, reply) => {
    if (isPageView(request, reply.statusCode)) counter.count();
  });

  const route = (
    method: 'GET' | 'POST' | Array<'GET' | 'POST'>,
    url: string,
    permission: RoutePermission,
    write: boolean,
    handler: (p: Params, r: FastifyRequest) => Promise<unknown>,
  ) => app.route({ method, url, config: { permission, write }, handler: (request) => handler(requestParams(request), request) });

  route(['GET', 'POST'], '/dev-api/api/index/index', 'login', false, async (_p, r) => {
    const auth = r.auth;
    const actor = await actorOf(db, auth);
    const now = Date.now();
    const [todo, platform] = await Promise.all([auth ? todoList(db, auth, actor, now) : [], platformFigures(db, counter, now)]);
    return ok({ today: dayKey(dayNo(now)), todo, platform, allStores: actor.allStores });
  });

  route(['GET', 'POST'], '/dev-api/api/index/indexv', STATISTICS_PERMISSION, false, async (p, r) => {
    const actor = await actorOf(db, r.auth);
    const now = Date.now();
    const { fromNo, toNo } = range(p, now);
    const [days, views] = await Promise.all([
      readDays(db, fromNo, toNo, actor.allStores ? undefined : (actor.storeId ?? NO_STORE_ROWS), now),
      pageViewsByDay(db, counter, fromNo, toNo),
    ]);
    const rows = days.map((d, i) => ({ ...d, pageViews: views.get(fromNo + i) ?? 0 }));
    const totals = { ...totalsOf(days), pageViews: rows.reduce((n, d) => n + d.pageViews, 0) };
    const answer: Statistics = { beginDate: dayKey(fromNo), endDate: dayKey(toNo), figures: FIGURES, days: rows, totals, allStores: actor.allStores };
    return ok(answer);
  });

  route('GET', '/dev-api/api/index/fastPath', 'login', false, async (_p, r) => ok(await getFastPath(db, requireAuth(r))));
  route('POST', '/dev-api/api/index/fastPath', 'login', true, async (p, r) => ok(await saveFastPath(db, requireAuth(r), p.menuIds), '快捷菜单已保存'));

  route(['GET', 'POST'], '/dev-api/api/index/tabList', 'login', false, async (p) => ok(await tabList(db, p.tab, p.pageSize)));

  route(['GET', 'POST'], '/dev-api/api/index/helpCenter', 'login', false, async (p) => ok(await helpArticles(db, p.keyword)));
  await app.register(versionRoutes); // systermUpdateList: the releases of 版本管理 (versions.ts)

  /** For tests and the bench: write the counted views now. */
  app.decorate('pageViews', counter);
}

function requireAuth(r: FastifyRequest) {
  if (!r.auth) throw fail('未登录或登录已过期，请先登录');
  return r.auth;
}

declare module 'fastify' {
  interface FastifyInstance {
    pageViews: PageViewCounter;
  }
}

export const homeRoutes = fp(home, { name: 'home' });

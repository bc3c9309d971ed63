import type { TodoItem } from '../../common/home/todo.js';
import type { Db } from '../db/types.js';
import type { AuthContext } from '../http/context.js';
import { allows } from '../security/access.js';
import type { Actor } from '../security/actor.js';
import { dayKey, dayNo, dayStart } from './days.js';
import { appointmentsToday, invoicesPending, memosDue, plansAwaitingReview, withdrawalsPending, workOrdersPending } from './sources.js';

/**
 * The to-do panel (待办事项): per source a count, the page it opens (by menu component, so the console finds the
 * route in the user's own menu) and the filter that page applies. Only sources whose list the user may open are
 * asked; the count is the total of exactly that filtered list (sources.ts).
 */

interface TodoSource {
  key: string;
  title: string;
  permission: string;
  /** Not offered to a holder of this permission (they get another tile of the same key). */
  unless?: string;
  /** Shown only while its count is above zero (a reminder, not a work queue). */
  onlyWhenDue?: boolean;
  component: string;
  query: (today: string, now: number) => Record<string, string>;
  count: (db: Db, actor: Actor, now: number) => Promise<number>;
}

const SOURCES: TodoSource[] = [
  {
    key: 'review',
    title: '待审核方案',
    permission: 'volunteer:examine:list',
    component: 'Examine/index',
    query: () => ({ status: 'submitted' }),
    count: (db, actor) => plansAwaitingReview(db, actor),
  },
  {
    key: 'appointment',
    title: '今日预约',
    permission: 'volunteer:appointment:list',
    component: 'appointment/index',
    // Exact bounds of today in China time: the list applies them as they are, whatever the browser's time zone.
    query: (_today, now) => ({ status: 'pending', dateFrom: String(dayStart(dayNo(now))), dateTo: String(dayStart(dayNo(now) + 1) - 1) }),
    count: (db, actor, now) => appointmentsToday(db, actor, dayStart(dayNo(now)), dayStart(dayNo(now) + 1) - 1),
  },
  {
    // Headquarters handles work orders in 工单管理; a store follows its own in 提交工单 (below).
    key: 'workOrder',
    title: '待处理工单',
    permission: 'service:workorder:handle',
    component: 'serviceCenter/workOrder/index',
    query: () => ({ status: '0' }),
    count: (db, actor) => workOrdersPending(db, actor),
  },
  {
    key: 'workOrder',
    title: '待处理工单',
    permission: 'service:workorder:list',
    unless: 'service:workorder:handle',
    component: 'serviceCenter/submitWorkOrder/index',
    query: () => ({ status: '0' }),
    count: (db, actor) => workOrdersPending(db, actor),
  },
  {
    key: 'withdraw',
    title: '待审核提现',
    permission: 'finance:withdraw:list',
    component: 'finance/withdraw/index',
    query: () => ({ status: '0' }),
    count: (db, actor) => withdrawalsPending(db, actor),
  },
  {
    key: 'invoice',
    title: '待开发票',
    permission: 'finance:invoice:list',
    component: 'finance/invoice/index',
    query: () => ({ status: '0' }),
    count: (db, actor) => invoicesPending(db, actor),
  },
  {
    // The user's own notes (备忘录, x-owner): the page lists the due ones above the notes (到期提醒).
    key: 'memo',
    title: '到期备忘',
    permission: 'system:memo:list',
    component: 'system/memo/index',
    query: () => ({}),
    onlyWhenDue: true,
    count: (db, actor, now) => memosDue(db, actor, now),
  },
];

export async function todoList(db: Db, auth: AuthContext, actor: Actor, now = Date.now()): Promise<TodoItem[]> {
  const today = dayKey(dayNo(now));
  const mine = SOURCES.filter((s) => allows(auth, s.permission) && !(s.unless && allows(auth, s.unless)));
  const counts = await Promise.all(mine.map((s) => s.count(db, actor, now)));
  return mine
    .map((s, i) => ({ source: s, item: { key: s.key, title: s.title, count: counts[i], component: s.component, query: s.query(today, now) } }))
    .filter(({ source, item }) => !source.onlyWhenDue || item.count > 0)
    .map(({ item }) => item);
}

import { sql } from 'kysely';
import type { Db } from '../db/connection.js';
import { getSettings } from '../system/index.js';
import { registerJobHandler } from './handlers.js';

/**
 * The job handlers this module owns (the 系统 group of 定时任务). Other modules register theirs the same way from their
 * own jobs.ts (docs/monitor.md). Each is idempotent: running it twice in a row does no harm.
 */

const DAY = 24 * 60 * 60 * 1000;
const CHINA_OFFSET = 8 * 60 * 60 * 1000;

/** What 每日统计 counts: the tables, their time columns and the one column that narrows a count. */
type FigureTable = 'sysUser' | 'volStudent' | 'volPlan' | 'sysLogininfor';
type FigureTime = 'createTime' | 'submitTime' | 'loginTime';
type FigureFlag = 'delFlag' | 'status';

/** Start (epoch ms) of the China-time calendar day that contains `t`. */
export function chinaDayStart(t: number): number {
  return Math.floor((t + CHINA_OFFSET) / DAY) * DAY - CHINA_OFFSET;
}

/** YYYY-MM-DD of the China-time day that starts at `start`. */
export function chinaDay(start: number): string {
  return new Date(start + CHINA_OFFSET).toISOString().slice(0, 10);
}

async function tableExists(db: Db, table: string): Promise<boolean> {
  const res =
    db.dialect === 'postgres'
      ? await sql<{
          n: number;
        }>`select count(*)::int as n from information_schema.tables where table_schema = current_schema() and table_name = ${table}`.execute(db.kysely)
      : await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = ${table}`.execute(db.kysely);
  return Number(res.rows[0]?.n ?? 0) > 0;
}

export const REMINDER_TITLE = '志愿审核超时提醒';

let registered = false;

/** Registers the built-in handlers once per process (several apps may be built in one test process). */
export function registerBuiltinJobs(): void {
  if (registered) return;
  registered = true;

  registerJobHandler<{ retainDays?: number }>({
    name: 'purgeExpiredSessions',
    title: '清理过期会话',
    description: '删除已过期或已注销的登录会话（在线用户不受影响）；retainDays：已注销会话保留天数',
    paramsSchema: { properties: { retainDays: { type: 'integer', title: '保留天数', minimum: 0, maximum: 365, default: 0 } } },
    async run({ db, now }, { retainDays = 0 }) {
      const before = now - retainDays * DAY;
      const res = await db.kysely
        .deleteFrom('sysSession')
        .where((eb) => eb.or([eb('expireTime', '<', before), eb.and([eb('revoked', '=', 1), eb('loginTime', '<', before)])]))
        .executeTakeFirst();
      return `已清理 ${Number(res.numDeletedRows)} 个过期或已注销的会话`;
    },
  });

  registerJobHandler({
    name: 'purgeRequestNonces',
    title: '清理重放记录',
    description: '删除已过期的请求签名记录（sys_request_nonce，防重放）',
    async run({ db, now }) {
      if (!(await tableExists(db, 'sys_request_nonce'))) return '防重放记录表尚未建立，无需清理';
      const res = await sql`delete from sys_request_nonce where expires_at < ${now}`.execute(db.kysely);
      return `已清理 ${Number(res.numAffectedRows ?? 0)} 条过期的重放记录`;
    },
  });

  registerJobHandler({
    name: 'reviewTimeoutReminder',
    title: '审核超时提醒',
    description: '按审核配置（审核人角色、审核超时提醒小时数）发布一条通知公告，提醒审核人处理超时未审的志愿方案',
    async run({ db, now }) {
      const audit = await getSettings(db.kysely, 'audit');
      if (!audit.submitNeedsReview || !audit.reviewTimeoutHours) return '审核配置未开启审核或超时提醒，无需提醒';
      const before = now - audit.reviewTimeoutHours * 60 * 60 * 1000;
      const row = await db.kysely
        .selectFrom('volPlan')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'submitted')
        .where('submitTime', '<', before)
        .executeTakeFirst();
      const overdue = Number(row?.n ?? 0);
      const roles = audit.reviewerRoleKeys.length
        ? (await db.kysely.selectFrom('sysRole').select('roleName').where('roleKey', 'in', audit.reviewerRoleKeys).execute()).map((r) => r.roleName)
        : [];
      const k = db.kysely;
      const existing = await sql<{ notice_id: number }>`select notice_id from sys_notice where notice_title = ${REMINDER_TITLE}`.execute(k);
      if (overdue === 0) {
        // Nothing overdue any more: close an earlier reminder so nobody is sent to an empty list.
        if (existing.rows.length)
          await sql`update sys_notice set status = '1', update_time = ${now}, update_by = 'system' where notice_title = ${REMINDER_TITLE}`.execute(k);
        return '没有超时未审核的志愿方案';
      }
      const who = roles.length ? roles.join('、') : '审核人';
      const content = `<p>${who}请注意：有 <strong>${overdue}</strong> 份志愿方案提交后超过 ${audit.reviewTimeoutHours} 小时仍未审核，请到「志愿审核」及时处理。</p>`;
      if (existing.rows.length) {
        await sql`update sys_notice set notice_content = ${content}, status = '0', update_time = ${now}, update_by = 'system' where notice_title = ${REMINDER_TITLE}`.execute(
          k,
        );
      } else {
        await sql`insert into sys_notice (notice_title, notice_type, notice_content, status, remark, create_by, create_time, version)
          values (${REMINDER_TITLE}, '1', ${content}, '0', '由定时任务「审核超时提醒」维护', 'system', ${now}, 1)`.execute(k);
      }
      return `已提醒${who}：${overdue} 份方案超时未审核`;
    },
  });

  registerJobHandler<{ folder?: string; keep?: number; keepDays?: number }>({
    name: 'systemBackup',
    title: '系统备份',
    description:
      '把数据库、密钥与上传文件备份为一个 .zip 归档（docs/backup.md），再删除该目录中超出保留规则的旧备份（只删本任务生成的 backup-时间.zip）；' +
      'folder：备份目录（留空为数据目录下的 backups，相对路径相对于数据目录）；keep：至少保留最新几份；keepDays：另外保留几天内的全部备份（0 不按天数）',
    paramsSchema: {
      properties: {
        folder: { type: 'string', title: '备份目录', maxLength: 500, default: '' },
        keep: { type: 'integer', title: '保留份数', minimum: 1, maximum: 1000, default: 7 },
        keepDays: { type: 'integer', title: '保留天数', minimum: 0, maximum: 3650, default: 0 },
      },
    },
    async run({ config, now, signal }, params) {
      if (!config) throw new Error('任务没有取得服务配置（数据目录、数据库），无法备份');
      // Loaded on the first run only: the archive code is not needed by a process that never backs up.
      const { runScheduledBackup } = await import('../db/backup.js');
      return runScheduledBackup(config, params, { now, signal });
    },
  });

  registerJobHandler<{ days?: number }>({
    name: 'dailyFigures',
    title: '每日统计',
    description: '按天（北京时间）统计用户、学生、志愿方案与登录数，写入 sys_daily_figure；days：重算最近几天',
    paramsSchema: { properties: { days: { type: 'integer', title: '统计天数', minimum: 1, maximum: 31, default: 2 } } },
    async run({ db, now }, { days = 2 }) {
      const k = db.kysely;
      /**
       * One figure of a day: the rows of a table whose time column falls in the day (from = the day's start) or, for a
       * running total (from = null), everything up to the day's end; `only` narrows to one column value (not deleted,
       * a successful sign-in).
       */
      const count = async (table: FigureTable, time: FigureTime, from: number | null, end: number, only?: [FigureFlag, string]) => {
        let q = k.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
        if (only) q = q.where(only[0], '=', only[1]);
        if (from !== null) q = q.where(time, '>=', from);
        return Number((await q.where(time, '<', end).executeTakeFirst())?.n ?? 0);
      };
      const today = chinaDayStart(now);
      for (let i = days - 1; i >= 0; i--) {
        const start = today - i * DAY;
        const end = start + DAY;
        const figures = {
          users: await count('sysUser', 'createTime', null, end, ['delFlag', '0']),
          newUsers: await count('sysUser', 'createTime', start, end),
          students: await count('volStudent', 'createTime', null, end, ['delFlag', '0']),
          newStudents: await count('volStudent', 'createTime', start, end),
          plansSubmitted: await count('volPlan', 'submitTime', start, end),
          logins: await count('sysLogininfor', 'loginTime', start, end, ['status', '0']),
        };
        const day = chinaDay(start);
        const values = { day, figures: JSON.stringify(figures), updateTime: now };
        await k
          .insertInto('sysDailyFigure')
          .values(values)
          .onConflict((oc) => oc.column('day').doUpdateSet({ figures: values.figures, updateTime: now }))
          .execute();
      }
      return `已统计最近 ${days} 天（截至 ${chinaDay(today)}）`;
    },
  });
}

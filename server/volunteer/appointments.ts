import type { Selectable } from 'kysely';
import type { VolAppointmentTable } from '../db/types.js';
import { parseTime as parseEngineTime } from '../engine/model.js';
import { fail } from '../http/envelope.js';
import { type Actor, APPOINTMENT_STATUS_NAMES, confinedStore, type Db, inActorStore, intParam, paging, seesAll, userNames } from './common.js';
import { loadStudent, requireExpert } from './students.js';

type AppointmentRow = Selectable<VolAppointmentTable>;

const MINUTE = 60 * 1000;

/** A time as epoch ms or 'YYYY-MM-DD HH:mm[:ss]' (server local time). */
function parseTime(v: unknown): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+$/.test(v.trim())) return Number(v.trim());
  if (typeof v === 'string') {
    const m = v.trim().match(/^(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))?$/);
    if (m) {
      const [y, mo, d, h, mi, s] = m.slice(1).map((x) => Number(x ?? 0));
      const date = new Date(y, mo - 1, d, h, mi, s || 0);
      if (date.getMonth() === mo - 1 && date.getDate() === d) return date.getTime();
    }
  }
  throw fail('预约时间格式不正确（应为 YYYY-MM-DD HH:mm）');
}

function duration(v: unknown, fallback: number): number {
  if (v == null || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 15 || n > 240) throw fail('预约时长必须在 15 到 240 分钟之间');
  return n;
}

function remark(v: unknown): string | null {
  if (v == null) return null;
  const r = String(v).trim();
  if (r.length > 500) throw fail('备注不能超过 500 个字');
  return r || null;
}

async function view(db: Db, rows: AppointmentRow[]) {
  const names = await userNames(
    db,
    rows.map((r) => r.expertId),
  );
  const ids = [...new Set(rows.map((r) => r.studentId))];
  const students = ids.length ? await db.selectFrom('volStudent').select(['studentId', 'name']).where('studentId', 'in', ids).execute() : [];
  return rows.map((r) => ({
    appointmentId: r.appointmentId,
    studentId: r.studentId,
    studentName: students.find((s) => s.studentId === r.studentId)?.name ?? null,
    expertId: r.expertId,
    expertName: names.get(r.expertId) ?? null,
    appointTime: r.appointTime,
    duration: r.duration,
    status: r.status,
    statusName: APPOINTMENT_STATUS_NAMES[r.status] ?? r.status,
    remark: r.remark,
    remadeFrom: r.remadeFrom,
    version: r.version,
    createTime: r.createTime,
    updateTime: r.updateTime,
  }));
}

async function load(db: Db, actor: Actor, id: unknown): Promise<AppointmentRow> {
  const appointmentId = intParam(id);
  if (appointmentId == null) throw fail('请选择预约');
  const row = await db.selectFrom('volAppointment').selectAll().where('appointmentId', '=', appointmentId).where('delFlag', '=', '0').executeTakeFirst();
  if (!row) throw fail('预约不存在或无权访问');
  const student = await db.selectFrom('volStudent').select('storeId').where('studentId', '=', row.studentId).executeTakeFirst();
  if (!student || !inActorStore(actor, student.storeId)) throw fail('预约不存在或无权访问');
  if (!seesAll(actor) && row.expertId !== actor.userId) {
    // The student's owner may see appointments made for their student with another expert, too.
    const s = await db.selectFrom('volStudent').select('ownerId').where('studentId', '=', row.studentId).executeTakeFirst();
    if (s?.ownerId !== actor.userId) throw fail('预约不存在或无权访问');
  }
  return row;
}

/** Pending appointments of the expert overlapping [start, start + minutes). */
async function clash(db: Db, expertId: number, start: number, minutes: number, except: number | null): Promise<boolean> {
  let q = db
    .selectFrom('volAppointment')
    .select(['appointmentId', 'appointTime', 'duration'])
    .where('expertId', '=', expertId)
    .where('status', '=', 'pending')
    .where('delFlag', '=', '0')
    .where('appointTime', '<', start + minutes * MINUTE)
    .where('appointTime', '>', start - 240 * MINUTE);
  if (except != null) q = q.where('appointmentId', '!=', except);
  const rows = await q.execute();
  return rows.some((r) => r.appointTime + r.duration * MINUTE > start);
}

function dayBound(value: unknown, endOfDay: boolean): number | undefined {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  const ms = parseEngineTime(value, endOfDay);
  if (ms == null) throw fail('预约时间范围不正确', 400);
  return ms;
}

export async function listAppointments(db: Db, actor: Actor, f: Record<string, unknown>) {
  const { pageSize, offset } = paging(f);
  let q = db.selectFrom('volAppointment as a').innerJoin('volStudent as s', 's.studentId', 'a.studentId').where('a.delFlag', '=', '0');
  const store = confinedStore(actor);
  if (store !== undefined) q = q.where('s.storeId', '=', store);
  if (!seesAll(actor)) q = q.where((eb) => eb.or([eb('a.expertId', '=', actor.userId), eb('s.ownerId', '=', actor.userId)]));
  if (typeof f.status === 'string' && f.status) {
    if (!APPOINTMENT_STATUS_NAMES[f.status]) throw fail('预约状态不正确');
    q = q.where('a.status', '=', f.status);
  }
  const studentId = intParam(f.studentId);
  if (studentId != null) q = q.where('a.studentId', '=', studentId);
  const expertId = intParam(f.expertId);
  if (expertId != null) q = q.where('a.expertId', '=', expertId);
  // dateFrom / dateTo: epoch ms (the home page's 今日预约 link); params[beginTime] / params[endTime]: the 预约时间
  // date range of 预约管理's schema (YYYY-MM-DD, whole days in UTC+8, as the engine's dateRange).
  const from = intParam(f.dateFrom) ?? dayBound(f['params[beginTime]'], false);
  if (from != null) q = q.where('a.appointTime', '>=', from);
  const to = intParam(f.dateTo) ?? dayBound(f['params[endTime]'], true);
  if (to != null) q = q.where('a.appointTime', '<=', to);
  const total = Number((await q.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await q.selectAll('a').orderBy('a.appointTime', 'desc').orderBy('a.appointmentId', 'desc').limit(pageSize).offset(offset).execute();
  return { rows: await view(db, rows), total };
}

export async function appointmentInfo(db: Db, actor: Actor, id: unknown) {
  return (await view(db, [await load(db, actor, id)]))[0];
}

async function expertFor(db: Db, actor: Actor, studentOwner: number | null, studentStore: number, expertId: unknown): Promise<number> {
  const wanted = intParam(expertId);
  if (wanted != null) return (await requireExpert(db, wanted, studentStore)).userId;
  if (studentOwner != null) return studentOwner;
  if (actor.roles.includes('expert')) return actor.userId;
  throw fail('请选择专家');
}

export async function addAppointment(db: Db, actor: Actor, input: Record<string, unknown>) {
  const student = await loadStudent(db, actor, input.studentId);
  const expertId = await expertFor(db, actor, student.ownerId, student.storeId, input.expertId);
  const start = parseTime(input.appointTime);
  const now = Date.now();
  if (start < now) throw fail('预约时间不能早于当前时间');
  const minutes = duration(input.duration, 60);
  if (await clash(db, expertId, start, minutes, null)) throw fail('该专家在该时间段已有预约');
  const row = await db
    .insertInto('volAppointment')
    .values({
      studentId: student.studentId,
      expertId,
      appointTime: start,
      duration: minutes,
      status: 'pending',
      remark: remark(input.remark),
      remadeFrom: null,
      delFlag: '0',
      createBy: actor.userId,
      createTime: now,
      updateTime: now,
      version: 1,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return (await view(db, [row]))[0];
}

function refuseChange(status: string) {
  if (status === 'done') throw fail('已完成的预约不能修改');
  if (status === 'cancelled') throw fail('已取消的预约不能修改');
  if (status === 'remade') throw fail('该预约已改约，请在新的预约上操作');
}

export async function editAppointment(db: Db, actor: Actor, input: Record<string, unknown>) {
  const row = await load(db, actor, input.appointmentId);
  refuseChange(row.status);
  const version = intParam(input.version);
  if (version == null) throw fail('缺少预约版本号（version），请刷新后再试');
  if (version !== row.version) throw fail('预约已被他人修改，请刷新后再试', 500, { currentVersion: row.version });
  const set: Partial<AppointmentRow> = {};
  if (input.appointTime != null && input.appointTime !== '') {
    set.appointTime = parseTime(input.appointTime);
    if (set.appointTime !== row.appointTime && set.appointTime < Date.now()) throw fail('预约时间不能早于当前时间');
  }
  if (input.duration != null && input.duration !== '') set.duration = duration(input.duration, row.duration);
  if ('remark' in input) set.remark = remark(input.remark);
  if (input.status != null && input.status !== '') {
    if (input.status !== 'done' && input.status !== 'cancelled' && input.status !== 'pending') throw fail('预约状态只能改为已完成或已取消');
    set.status = input.status;
  }
  if ((set.appointTime != null || set.duration != null) && (set.status ?? 'pending') === 'pending') {
    if (await clash(db, row.expertId, set.appointTime ?? row.appointTime, set.duration ?? row.duration, row.appointmentId))
      throw fail('该专家在该时间段已有预约');
  }
  const res = await db
    .updateTable('volAppointment')
    .set({ ...set, updateTime: Date.now(), version: row.version + 1 })
    .where('appointmentId', '=', row.appointmentId)
    .where('version', '=', row.version)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw fail('预约已被他人修改，请刷新后再试');
  return appointmentInfo(db, actor, row.appointmentId);
}

/** Re-make: a new pending appointment linked to the old one; a pending original becomes 'remade'. */
export async function remakeAppointment(db: Db, actor: Actor, input: Record<string, unknown>) {
  const row = await load(db, actor, input.appointmentId);
  if (row.status === 'remade') throw fail('该预约已改约，请在新的预约上操作');
  const start = parseTime(input.appointTime);
  const now = Date.now();
  if (start < now) throw fail('预约时间不能早于当前时间');
  const minutes = duration(input.duration, row.duration);
  const studentStore = (await db.selectFrom('volStudent').select('storeId').where('studentId', '=', row.studentId).executeTakeFirstOrThrow()).storeId;
  const expertId =
    input.expertId != null && input.expertId !== '' ? (await requireExpert(db, intParam(input.expertId) ?? 0, studentStore)).userId : row.expertId;
  if (await clash(db, expertId, start, minutes, row.appointmentId)) throw fail('该专家在该时间段已有预约');
  const created = await db.transaction().execute(async (trx) => {
    if (row.status === 'pending') {
      const res = await trx
        .updateTable('volAppointment')
        .set({ status: 'remade', updateTime: now, version: row.version + 1 })
        .where('appointmentId', '=', row.appointmentId)
        .where('version', '=', row.version)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw fail('预约已被他人修改，请刷新后再试');
    }
    return trx
      .insertInto('volAppointment')
      .values({
        studentId: row.studentId,
        expertId,
        appointTime: start,
        duration: minutes,
        status: 'pending',
        remark: 'remark' in input ? remark(input.remark) : row.remark,
        remadeFrom: row.appointmentId,
        delFlag: '0',
        createBy: actor.userId,
        createTime: now,
        updateTime: now,
        version: 1,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  });
  return (await view(db, [created]))[0];
}

export async function removeAppointment(db: Db, actor: Actor, input: Record<string, unknown>) {
  const row = await load(db, actor, input.appointmentId);
  if (row.status === 'done') throw fail('已完成的预约不能删除');
  await db.updateTable('volAppointment').set({ delFlag: '2', updateTime: Date.now() }).where('appointmentId', '=', row.appointmentId).execute();
}

import type { Envelope } from '@common/http/envelope';
import type { Caution } from '@common/volunteer/cautions';
import type { ChanceListRow, ChanceQuery, ChanceRow as SharedChanceRow } from '@common/volunteer/chances';
import type { GradientWarning, Tier } from '@common/volunteer/gradient';
import type { GroupOptionRow } from '@common/volunteer/groupOptions';
import type { DisciplineNode } from '@common/volunteer/majorClasses';
import type { MajorEvaluation, MajorFacts } from '@common/volunteer/majorEncyclopaedia';
import type { PlanInfoItem, PlanItem } from '@common/volunteer/planItems';
import type { DraftChoice, PlanSimulationView } from '@common/volunteer/planSimulation';
import type { SchoolReferenceView } from '@common/volunteer/schoolReference';
import type { SchoolInfo } from '@common/volunteer/schools';
import type { StudentImportResult } from '@common/volunteer/studentImport';
import type { EligibilityKind, PlanStatus, Preferences, StudentInput, StudentQuery } from '@common/volunteer/students';
import { download } from './download';
import { type RequestOptions, request } from './request';
import type { TablePage } from './types';

/**
 * Volunteer planning calls (spec §7.2; contract in docs/volunteer-api.md): students, acceptance-rate queries, plans,
 * approvals, leader distribution and appointments. Every function resolves with the answer's data; failures reject
 * with a RequestError whose message the http layer has already shown.
 */

export type { Tier };
export const TIERS: readonly Tier[] = ['冲', '稳', '保'];
export type TierCounts = Record<Tier, number> & { none?: number };
export type { PlanStatus };

export interface Student {
  studentId: number;
  name: string;
  mobile: string | null;
  province: string;
  examYear: number;
  score: number | null;
  rank: number | null;
  rankFlag: string | null;
  subjects: number[];
  subjectNames: string;
  ownerId: number;
  ownerName: string | null;
  planStatus: PlanStatus;
  planStatusName: string;
  planVersion: number;
  planItemCount: number;
  version: number;
  createTime: number;
  updateTime: number;
  /** 专项资格: the special-plan kinds the student may fill (ELIGIBILITY_KINDS). */
  specialEligibility?: EligibilityKind[];
  /** The store the student belongs to (the student lists; 领导审批 shows it). */
  storeId?: number;
  storeName?: string | null;
}

export interface PlanSummary {
  planId: number;
  status: PlanStatus;
  statusName: string;
  version: number;
  itemCount: number;
  createTime?: number;
  updateTime: number | null;
  submitTime: number | null;
  reviewTime: number | null;
  reviewBy?: number | null;
  reviewByName?: string | null;
  reviewComment: string | null;
}

export interface StudentInfo extends Student {
  preferences: Preferences;
  remark: string | null;
  plan: PlanSummary | null;
}

/** One admission option with the engine's estimate; list answers also mark whether the student liked it or has it in the plan. */
export type ChanceRow = SharedChanceRow & Partial<Pick<ChanceListRow, 'liked' | 'inPlan'>>;

export interface ChanceStudent {
  studentId?: number;
  name?: string;
  score: number;
  rank: number | null;
  rankFlag?: string | null;
  province: string;
  year: number;
  targetYear?: number;
}

/** Filters of the acceptance-rate queries (schoolEnrollChance and friends). */
export interface ChanceResult {
  rows: ChanceRow[];
  total: number;
  student: ChanceStudent | null;
  tierCounts: TierCounts;
  notes: string[];
}

export interface AdvanceChanceResult extends ChanceResult {
  available: boolean;
  message: string;
}

/** A plan item as the answers show it; zyInfo's also carry the figures recomputed now (common/volunteer/planItems.ts). */
export type { PlanInfoItem, PlanItem };

export interface PlanInfo {
  student: Student;
  plan: PlanSummary | null;
  items: PlanInfoItem[];
  warnings: GradientWarning[];
  slotLimit: number;
  /** The catalogue year and the exam year families fill (when the server names them). */
  year?: number | null;
  targetYear?: number | null;
}

export interface SaveResult {
  planId: number;
  studentId: number;
  status: PlanStatus;
  version: number;
  itemCount: number;
  items: PlanItem[];
  warnings: GradientWarning[];
}

export interface ProvinceRules {
  province: string;
  mode: string;
  subjectType: number;
  zyType: number;
  zyTypeName: string;
  slotLimit: number;
  groupMajorLimit: number;
  cohortSize: number | null;
  /** Loaded line years, newest first (years[0] = the catalogue year). */
  years: number[];
  /** The catalogue year and the exam year families fill (when the server names them). */
  year?: number | null;
  targetYear?: number | null;
  batches: string[];
  tracks: string[];
  batchLines: Array<{ year: number; track: string; batch: string; minScore: number }>;
  subjects: Array<{ id: number; name: string }>;
  notes: string[];
}

export interface FilterChoices {
  province: string;
  year: number;
  batch: string;
  regions: Array<{ value: string | null; label: string; count: number }>;
  tags: Array<{ value: string; count: number }>;
  levels: Array<{ value: string; count?: number }>;
  isPublic: Array<{ value: number; label?: string; count?: number }>;
  tiers: Tier[];
  /** 计划类型 filter values with their line counts; needsEligibility: offered only with that 专项资格. */
  planTypes?: Array<{ value: string; label: string; count: number; needsEligibility: boolean }>;
  notes: string[];
}

export interface Provinces {
  examProvinces: Array<{ province: string; mode: string; subjectType: number; zyType: number; slotLimit: number }>;
  schoolProvinces: Array<{ province: string | null; schoolCount: number; cities: string[] }>;
}

export interface SchoolHome {
  school: SchoolInfo;
  stats: { majorCount: number; minScore: number | null; maxScore: number | null; minRank: number | null; year: number };
  tabs: Array<{ index: number; key: string; name: string; available: boolean; content: string }>;
  /** 院校百科: 软科 2026, 双一流 2022, 第四轮学科评估 2017 (server/volunteer/reference.ts); absent, nothing of it is shown. */
  reference?: SchoolReferenceView;
  lines: ChanceRow[];
}

/** A line teaching the major: printed as the major itself or as its 专业类, with the school's grade in its discipline. */
export type MajorSchoolRow = ChanceRow & { via: 'major' | 'class'; evaluation: MajorEvaluation | null };

/** 专业详情: the 2025 catalogue's facts (null for a name it cannot place), the lines and grades (issue 27). */
export interface MajorDetail {
  majorName: string;
  facts: MajorFacts | null;
  /** The 一级学科 whose 第四轮学科评估 grade stands for the major; null when none does. */
  discipline: { code: string; name: string } | null;
  evaluationYear: number;
  modules: Array<{ name: string; key: string; content: string; available: boolean }>;
  schools: MajorSchoolRow[];
  stats: { year: number; schoolCount: number; lineCount: number; minScore: number | null; maxScore: number | null };
}

/** A line of an auto-fill proposal; the landing strategy says which choices were locked, bought as safety or preferred. */
export type AutofillItem = ChanceRow & {
  sort: number;
  filledFor: Tier;
  locked?: boolean;
  safety?: boolean;
  preferred?: boolean;
  cautions?: Array<{ kind: string; text: string }>;
};

export interface AutofillProposal {
  /** landing: chosen and ordered for where the student lands (issue 24); tiers: fixed 冲/稳/保 quotas. */
  strategy: 'landing' | 'tiers';
  items: AutofillItem[];
  requested: Record<Tier, number> | null;
  effectiveCounts: Record<Tier, number>;
  shortfalls: Array<{ tier: Tier; requested: number; own: number; borrowed: number; missing: number }>;
  /** The proposal simulated (parallel 投档 over many years), null when it cannot be. */
  simulation: PlanSimulationView | null;
  /** Why this plan, in Chinese (landing strategy). */
  explanation: string[];
  notes: string[];
  warnings: GradientWarning[];
  slotLimit: number;
}

/** The options of 智能填报 (docs/volunteer-api.md). */
export interface AutofillQuery extends ChanceQuery {
  studentId: number;
  strategy: 'landing' | 'tiers';
  counts?: Record<Tier, number>;
  allowWasteful?: boolean;
  /** 专业类 (4 digits) or 门类 (2 digits) codes of the 本科专业目录. */
  majorClass?: string[];
  majorClassOnly?: 0 | 1;
  avoidClass?: string[];
  chongFloor?: number;
  slideTarget?: number;
  maxPerSchool?: number;
  locked?: Array<{ lineId: number; sort: number }>;
}

/** 门类 with their 专业类 (本科专业目录 2025). */
export interface Submission {
  submissionId: number;
  planVersion: number;
  itemCount: number;
  status: 'submitted' | 'approved' | 'rejected' | 'withdrawn';
  statusName: string;
  submitBy: number;
  submitByName: string | null;
  submitTime: number;
  reviewBy: number | null;
  reviewByName: string | null;
  reviewTime: number | null;
  comment: string | null;
  items: PlanItem[];
}

export interface PlanAction {
  actionId: number;
  action: string;
  actionName: string;
  fromStatus: PlanStatus | null;
  toStatus: PlanStatus | null;
  version: number;
  userId: number;
  userName: string;
  nickName: string | null;
  comment: string | null;
  createTime: number;
}

export interface PlanReportItem extends PlanItem {
  /** "2026 · 581分 · 29,348名". */
  figureText?: string | null;
  /** "2027 录取概率 53.20%；2027 估计位次 30,120". */
  estimateText?: string | null;
  /** 选科 as printed (选科要求未知 when unknown). */
  subjectText?: string | null;
  /** 学费 from the line's notes, or 学费较高，以招生章程为准 for 中外合作/民办. */
  feeNote?: string | null;
  /** Share of the simulated years the student lands at this choice (null: not simulated), and why it is idle. */
  landing?: number | null;
  idleReason?: string | null;
  /** What to know before filling it (位次波动大, 招生人数少, 学费, 军队/公安, 选科要求未知); absent from older servers. */
  cautions?: Caution[];
}

export interface PlanReport {
  student: Student;
  plan: PlanSummary;
  tierDistribution: TierCounts;
  tierShare: Record<string, number>;
  probability: { min: number | null; max: number | null; mean: number | null };
  changedSinceSave: Array<{
    sort: number;
    lineId: number;
    schoolName?: string | null;
    majorName?: string | null;
    savedTier: Tier | null;
    currentTier: Tier | null;
  }>;
  /** The plan's choices with their figures, each beside its year ("2026 · 581分 · 29,348名"). */
  items?: PlanReportItem[];
  /** The catalogue year (院校代码, 专业代号, line figures), the exam year the family fills, the rank table's year. */
  year?: number | null;
  targetYear?: number | null;
  rankYear?: number | null;
  warnings: GradientWarning[];
  risks: string[];
  summary: string;
  /** The whole plan simulated (parallel 投档 in plan order); null without a fitted model or a rank. */
  simulation?: PlanSimulationView | null;
}

export interface ShareLink {
  token: string;
  url: string;
  expireTime: number;
  readOnly: boolean;
}

export interface ExamineRow {
  planId: number;
  studentId: number;
  studentName: string;
  score: number | null;
  rank: number | null;
  ownerId: number;
  ownerName: string | null;
  status: PlanStatus;
  statusName: string;
  version: number;
  itemCount: number;
  tierCounts: TierCounts;
  submitTime: number | null;
  submitByName: string | null;
  reviewTime: number | null;
  reviewByName: string | null;
  reviewComment: string | null;
}

export interface FinalPlan {
  student: Student;
  approvedAt: number;
  approvedBy: number;
  approvedByName: string | null;
  comment: string | null;
  planVersion: number;
  items: PlanItem[];
}

export interface Expert {
  userId: number;
  userName: string;
  nickName: string | null;
  mobile: string | null;
  storeId: number | null;
  storeName: string | null;
  studentCount: number;
  draftCount: number;
  submittedCount: number;
  approvedCount: number;
  rejectedCount: number;
}

export type AppointmentStatus = 'pending' | 'done' | 'cancelled' | 'remade';

export interface Appointment {
  appointmentId: number;
  studentId: number;
  studentName: string;
  expertId: number;
  expertName: string | null;
  appointTime: number;
  duration: number;
  status: AppointmentStatus;
  statusName: string;
  remark: string | null;
  remadeFrom: number | null;
  version: number;
  createTime: number;
  updateTime: number;
}

export interface MajorRecommendation {
  majorName: string;
  matchedInterest: string | null;
  lineCount: number;
  reachable: number;
  tiers: Record<Tier, number>;
  bestProbability: number | null;
  score: number;
  options: ChanceRow[];
}

const data = async <T>(url: string, body: unknown = {}, options?: RequestOptions): Promise<T> =>
  (await request<T>({ url, method: 'post', data: body, options })).data as T;

const table = <T>(env: Envelope): TablePage<T> => ({ rows: (env.rows ?? []) as T[], total: env.total ?? 0 });

/** Drops undefined, empty strings and empty arrays so the request carries only the filters in use. */
export function compact<T extends object>(query: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    out[k] = v;
  }
  return out as Partial<T>;
}

// ——— Students ———

export async function listStudents(query: StudentQuery): Promise<TablePage<Student>> {
  return table<Student>(await request({ url: '/dev-api/api/index/subscriber', method: 'get', params: compact(query) }));
}

export const studentInfo = (studentId: number) => data<StudentInfo>('/dev-api/api/Subscriber/info', { studentId });

export async function addStudent(input: StudentInput): Promise<{ student: StudentInfo; msg: string }> {
  const env = await request<StudentInfo>({ url: '/dev-api/api/Subscriber/add', method: 'post', data: input });
  return { student: env.data as StudentInfo, msg: env.msg };
}

export async function editStudent(studentId: number, version: number, input: StudentInput): Promise<{ student: StudentInfo; msg: string }> {
  const env = await request<StudentInfo>({ url: '/appv2/api/index/editUser', method: 'post', data: { ...input, studentId, version } });
  return { student: env.data as StudentInfo, msg: env.msg };
}

// ——— Filling queries ———

function chanceResult(env: Envelope): ChanceResult {
  return {
    rows: (env.rows ?? []) as ChanceRow[],
    total: env.total ?? 0,
    student: (env.student as ChanceStudent | undefined) ?? null,
    tierCounts: (env.tierCounts as TierCounts | undefined) ?? { 冲: 0, 稳: 0, 保: 0 },
    notes: (env.notes as string[] | undefined) ?? [],
  };
}

/** Acceptance rates of the options passing the filters: one page, sorted and filtered on the server, with tier counts. */
export async function enrollChance(query: ChanceQuery): Promise<ChanceResult> {
  return chanceResult(await request({ url: '/appv2/api/Filling/schoolEnrollChance', method: 'post', data: compact(query) }));
}

/** 提前批: answers available=false with the server's explanation when the province has no advance-batch lines. */
export async function advanceChance(query: ChanceQuery): Promise<AdvanceChanceResult> {
  const env = await request({ url: '/appv2/api/Filling/pre_batch', method: 'post', data: compact(query) });
  return { ...chanceResult(env), available: env.available !== false, message: env.msg };
}

/** The simulation of an unsaved plan; null with the server's reason when it cannot run (no rank, no model). */
export interface DraftSimulation {
  simulation: PlanSimulationView | null;
  msg: string;
}

/**
 * Simulates the plan being edited (parallel 投档 over many years, as the report does for the saved plan). Asked on
 * every edit: a read (no double-submit guard), silent (the editor shows a failure in place, not as a toast), and
 * cancellable — an edit made meanwhile aborts the answer that no longer fits the list.
 */
export async function simulatePlan(studentId: number, items: DraftChoice[], signal?: AbortSignal): Promise<DraftSimulation> {
  const env = await request<PlanSimulationView | null>({
    url: '/appv2/api/Filling/simulatePlan',
    method: 'post',
    data: { studentId, items },
    signal,
    options: { read: true, silent: true },
  });
  return { simulation: env.data ?? null, msg: env.msg };
}

/** The 本科专业目录 does not change while the console is open: asked once (again after a failure). */
let majorClasses: Promise<DisciplineNode[]> | null = null;
export function majorClassTree(): Promise<DisciplineNode[]> {
  majorClasses ??= request<DisciplineNode[]>({ url: '/appv2/api/Filling/majorClasses', method: 'get' }).then(
    (env) => env.data as DisciplineNode[],
    (e) => {
      majorClasses = null;
      throw e;
    },
  );
  return majorClasses;
}
export const autofillProposal = (query: AutofillQuery) => data<AutofillProposal>('/appv2/api/Filling/schoolEnrollChance_auto', compact(query));

export const provinceRules = (province?: string) => data<ProvinceRules>('/appv2/api/index/gkbInfo', compact({ province }));
export const filterChoices = () => data<FilterChoices>('/dev-api/api/toolbox/OrdinaryBatchFiter');
export const provinces = () => data<Provinces>('/dev-api/api/toolbox/getProvince');
export const cities = (province: string) => data<string[]>('/appv2/api/index/areaChilds', { province });
export const schoolHome = (schoolCode: string, studentId?: number) => data<SchoolHome>('/appv2/api/index/schoolHome', compact({ schoolCode, studentId }));
export const majorDetail = (majorName: string, studentId?: number, schoolCode?: string) =>
  data<MajorDetail>('/appv2/api/index/majorDetail', compact({ majorName, studentId, schoolCode }));

export const likeList = (studentId: number) => data<Array<ChanceRow & { likeId: number; createTime: number }>>('/appv2/api/index/likeList', { studentId });
export async function likeAdd(studentId: number, lineId: number): Promise<string> {
  return (await request({ url: '/appv2/api/index/likeAdd', method: 'post', data: { studentId, lineId } })).msg;
}
export async function likeDel(studentId: number, lineId: number): Promise<string> {
  return (await request({ url: '/appv2/api/index/likeDel', method: 'post', data: { studentId, lineId } })).msg;
}

export const majorRecommend = (studentId: number, limit?: number) =>
  data<{ interests: string[]; rows: MajorRecommendation[]; notes: string[] }>('/dev-api/api/majorRecommend/list', compact({ studentId, limit }));

// ——— Plans ———

export const planInfo = (studentId: number) => data<PlanInfo>('/appv2/api/index/zyInfo', { studentId });

export interface SaveItem {
  lineId: number;
  obey?: boolean | null;
  /** 院校专业组 provinces: the group's majors (up to 6). */
  majors?: string[];
}

/** Saves the whole ordered list. A stale version rejects with the server's message (and currentVersion on the envelope). */
export async function savePlan(studentId: number, version: number, items: SaveItem[]): Promise<{ result: SaveResult; msg: string }> {
  const env = await request<SaveResult>({ url: '/dev-api/api/Subscriber/save', method: 'post', data: { studentId, version, items } });
  return { result: env.data as SaveResult, msg: env.msg };
}

/** Saves a new order of the same items (logged as 排序). */
export async function saveSort(studentId: number, version: number, lineIds: number[]): Promise<{ result: SaveResult; msg: string }> {
  const env = await request<SaveResult>({ url: '/appv2/api/index/saveSort', method: 'post', data: { studentId, version, lineIds } });
  return { result: env.data as SaveResult, msg: env.msg };
}

export async function submitPlan(studentId: number, version: number): Promise<{ version: number; msg: string }> {
  const env = await request<{ version: number }>({ url: '/dev-api/api/Subscriber/submit', method: 'post', data: { studentId, version } });
  return { version: env.data?.version ?? version + 1, msg: env.msg };
}

export async function unsubmitPlan(studentId: number, version: number): Promise<{ version: number; msg: string }> {
  const env = await request<{ version: number }>({ url: '/dev-api/api/Subscriber/unsubmit', method: 'post', data: { studentId, version } });
  return { version: env.data?.version ?? version + 1, msg: env.msg };
}

export const submissionHistory = (studentId: number) => data<Submission[]>('/appv2/api/Subscriber/submitHis', { studentId });
export const planHistory = (studentId: number) => data<PlanAction[]>('/dev-api/api/Subscriber/history', { studentId });
/** 审核配置 as the 志愿审核 screen applies it. */
export interface ReviewConfig {
  submitNeedsReview: boolean;
  rejectNeedsComment: boolean;
}
export const reviewConfig = () => data<ReviewConfig>('/dev-api/api/Examine/config', {});
export const examineHistory = (studentId: number) => data<PlanAction[]>('/dev-api/api/Examine/history', { studentId });
export const planReport = (studentId: number) => data<PlanReport>('/dev-api/api/Subscriber/report', { studentId });
export const finalPlan = (studentId: number) => data<FinalPlan>('/dev-api/api/experts/finalPlan', { studentId });
export const shareLink = (studentId: number, renew = false) =>
  data<ShareLink>(renew ? '/appv2/api/index/shareZYNew' : '/appv2/api/index/shareZY', { studentId });

export const downloadPlanPdf = (studentId: number, name: string) =>
  download('/appv2/api/index/downloadZYpdf', { method: 'post', data: { studentId } }, `志愿方案-${name}.pdf`);
export const downloadPlanExcel = (studentId: number, name: string) =>
  download('/dev-api/api/Subscriber/exportZY', { method: 'post', data: { studentId } }, `志愿方案-${name}.xlsx`);

// ——— Approvals ———

export async function approvePlan(studentId: number, version: number, comment?: string): Promise<string> {
  return (await request({ url: '/dev-api/api/Examine/approve', method: 'post', data: compact({ studentId, version, comment }) })).msg;
}

export async function rejectPlan(studentId: number, version: number, comment: string): Promise<string> {
  return (await request({ url: '/dev-api/api/Examine/reject', method: 'post', data: { studentId, version, comment } })).msg;
}

// ——— Leader advance approval ———

export const listExperts = () => data<Expert[]>('/dev-api/api/AdvanceApproval/experts');

export async function distribute(studentIds: number[], expertId: number): Promise<string> {
  return (await request({ url: '/dev-api/api/AdvanceApproval/distribute', method: 'post', data: { studentIds, expertId } })).msg;
}

// ——— Appointments ———

export async function addAppointment(input: {
  studentId: number;
  expertId?: number;
  appointTime: number;
  duration?: number;
  remark?: string;
}): Promise<string> {
  return (await request({ url: '/dev-api/api/appointment/add', method: 'post', data: compact(input) })).msg;
}

export async function editAppointment(input: {
  appointmentId: number;
  version: number;
  appointTime?: number;
  duration?: number;
  remark?: string;
  status?: 'done' | 'cancelled';
}): Promise<string> {
  return (await request({ url: '/dev-api/api/appointment/edit', method: 'post', data: compact(input) })).msg;
}

export async function remakeAppointment(input: { appointmentId: number; appointTime: number; duration?: number; remark?: string }): Promise<string> {
  return (await request({ url: '/dev-api/api/appointment/remake', method: 'post', data: compact(input) })).msg;
}

// ——— 3+1+2 provinces (湖北, 广东): 院校专业组 ———

export type { GroupOptionRow };

export interface GroupOptions {
  province: string;
  year: number | null;
  track: string;
  reselect: string[];
  batchLine: number | null;
  belowBatchLine: boolean;
  message: string | null;
  spreadSource: string;
  spreadNote: string;
  slotLimit: number;
  groupMajorLimit: number;
  tierCounts: Record<Tier, number>;
  total: number;
  rows: GroupOptionRow[];
}

export interface GroupOptionsQuery {
  studentId: number;
  tier?: Tier;
  keyword?: string;
  pageNum?: number;
  pageSize?: number;
}

/** The student's 院校专业组 options: one page, hardest first, with counts per tier and the rules (45 groups, 6 majors). */
export const groupOptions = (query: GroupOptionsQuery) => data<GroupOptions>('/dev-api/volunteer/groups/options', compact(query));

// ——— 学生导入 (spec §7.2 ExcelImport/import) ———

/**
 * Imports students from an .xlsx made from the template. A refused file rejects with a RequestError whose envelope's
 * `data` lists the bad rows (StudentImportProblem[]); nothing is written then.
 */
export async function importStudents(file: File): Promise<{ result: StudentImportResult; msg: string }> {
  const form = new FormData();
  form.append('file', file, file.name);
  const env = await request<StudentImportResult>({
    url: '/appv2/api/ExcelImport/import',
    method: 'post',
    data: form,
    headers: { 'Content-Type': 'multipart/form-data' },
    options: { repeatSubmit: false, silent: true },
  });
  return { result: env.data as StudentImportResult, msg: env.msg };
}

export const downloadStudentTemplate = () => download('/appv2/api/ExcelImport/template', { method: 'get' }, '学生导入模板.xlsx');

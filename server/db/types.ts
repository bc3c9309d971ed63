import type { ColumnType, Generated, Kysely } from 'kysely';
import type { PlatformSettings } from '../../common/system/platform.js';

/** Table types (camelCase; CamelCasePlugin maps them to snake_case columns). Times are epoch milliseconds. */
export interface UserTable {
  userId: Generated<number>;
  deptId: number | null;
  userName: string;
  nickName: string;
  mobile: string | null;
  email: string | null;
  sex: string;
  avatar: string | null;
  password: string | null;
  status: string; // '0' normal, '1' disabled
  delFlag: string; // '0' present, '2' deleted
  diagnosis: number; // 1 = may use the diagnostic score conversion tool
  pwdFailCount: number;
  lockUntil: number | null;
  loginIp: string | null;
  loginDate: number | null;
  createTime: number;
  updateTime: number | null;
  remark: string | null;
  version: number;
}

export interface RoleTable {
  roleId: Generated<number>;
  roleName: string;
  roleKey: string;
  roleSort: number;
  dataScope: string;
  status: string;
  delFlag: string;
  createTime: number;
  remark: string | null;
  version: number;
}

export interface MenuTable {
  menuId: Generated<number>;
  menuName: string;
  parentId: number;
  orderNum: number;
  path: string;
  component: string | null;
  query: string | null;
  routeName: string | null;
  isFrame: number; // 0 external link, 1 internal
  isCache: number; // 0 cached, 1 no cache
  menuType: string; // M directory, C page, F button
  visible: string; // '0' shown, '1' hidden
  status: string; // '0' enabled, '1' disabled
  perms: string | null;
  icon: string | null;
  activeMenu: string | null;
  affix: number;
  createTime: number;
  remark: string | null;
}

/** A seeded menu entry this install has received (migration 020, server/db/seed/menuSync.ts). */
export interface MenuSeedTable {
  seedKey: string;
  createTime: number;
}

export interface DeptTable {
  deptId: Generated<number>;
  parentId: number;
  ancestors: string;
  deptName: string;
  orderNum: number;
  leader: string | null;
  phone: string | null;
  email: string | null;
  status: string;
  delFlag: string;
  createTime: number;
}

export interface PostTable {
  postId: Generated<number>;
  postCode: string;
  postName: string;
  postSort: number;
  status: string;
  createTime: number;
  remark: string | null;
}

export interface UserRoleTable {
  userId: number;
  roleId: number;
}
export interface RoleMenuTable {
  roleId: number;
  menuId: number;
}
export interface UserPostTable {
  userId: number;
  postId: number;
}

export interface SessionTable {
  tokenHash: string;
  userId: number;
  userName: string;
  ipaddr: string | null;
  browser: string | null;
  os: string | null;
  loginTime: number;
  expireTime: number;
  revoked: number;
  /** The console's per-session public key (SPKI, base64) for session-bound response encryption (migration 009). */
  clientKey: string | null;
}

/* Security hardening (migration 009, docs/security.md). */
export interface RequestNonceTable {
  nonce: string;
  expiresAt: number;
}

export interface LoginAttemptTable {
  attemptKey: string;
  failCount: number;
  lockUntil: number | null;
  updateTime: number;
}

export interface Database {
  sysRequestNonce: RequestNonceTable;
  sysLoginAttempt: LoginAttemptTable;
}

export interface LoginInfoTable {
  infoId: Generated<number>;
  userName: string;
  status: string; // '0' success, '1' failure
  ipaddr: string | null;
  browser: string | null;
  os: string | null;
  msg: string;
  loginTime: number;
}

export interface SmsCodeTable {
  id: Generated<number>;
  mobile: string;
  codeHash: string;
  purpose: string;
  expireTime: number;
  attempts: number;
  used: number;
  createTime: number;
}

/** The one platform row, stored as GET /dev-api/system/platform answers it (common/system/platform.ts). */
export type PlatformTable = PlatformSettings;

export interface ProvinceTable {
  province: string;
  mode: string;
  subjectType: number;
  zyType: number;
  slotLimit: number;
  groupMajorLimit: number;
  cohortSize: number | null;
}

export interface SchoolTable {
  schoolId: Generated<number>;
  examProvince: string;
  schoolCode: string;
  name: string;
  province: string | null;
  city: string | null;
  level: string | null;
  tags: string;
  isPublic: number | null;
  /** 公办 / 民办 / 中外合作办学 (migration 013). */
  ownership: ColumnType<string | null, string | null | undefined, string | null>;
  /** 主管部门 (migration 013). */
  authority: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AdmissionLineTable {
  lineId: Generated<number>;
  examProvince: string;
  year: number;
  batch: string;
  track: string;
  schoolCode: string;
  groupCode: string | null;
  majorName: string | null;
  minScore: number;
  minRank: number | null;
  planCount: number | null;
  subjectReq: string | null;
  /** 专业代号 (migration 013); null for lines loaded without it. */
  majorCode: ColumnType<string | null, string | null | undefined, string | null>;
  createTime: number;
}

export interface ScoreSegmentTable {
  examProvince: string;
  year: number;
  track: string;
  score: number;
  cumulativeRank: number;
}

export interface BatchLineTable {
  examProvince: string;
  year: number;
  track: string;
  batch: string;
  minScore: number;
}

export interface VersionLogTable {
  logId: Generated<number>;
  appId: string;
  releaseTag: string; // migration 018 renamed it from `version`
  userName: string;
  signTool: string;
  publishTime: number;
  domain: string;
  changedFiles: number;
  log: string;
  version: Generated<number>; // the schema engine's optimistic lock (schemas/home/sys_version_log.json)
}

/** Operation log (migration 004; written by the schema engine, listed through schemas/monitor/sys_oper_log.json). */
export interface OperLogTable {
  operId: Generated<number>;
  title: string;
  businessType: number; // 0 other, 1 add, 2 edit, 3 delete, 5 export, 6 import, 9 clean
  method: string;
  requestMethod: string;
  operName: string;
  operUrl: string;
  operIp: string;
  operParam: string | null;
  jsonResult: string | null;
  status: number; // 0 success, 1 failure
  errorMsg: string | null;
  operTime: number;
  costTime: number;
}

/** Columns the schema engine created, added or adopted, per table (migration 004). */
export interface SchemaStateTable {
  tableName: string;
  columnName: string;
  property: string;
  kind: string;
  origin: string;
  schemaId: string;
  updatedAt: number;
}

export interface Database {
  sysOperLog: OperLogTable;
  sysSchemaState: SchemaStateTable;
  sysVersionLog: VersionLogTable;
  gkProvince: ProvinceTable;
  gkSchool: SchoolTable;
  gkAdmissionLine: AdmissionLineTable;
  gkScoreSegment: ScoreSegmentTable;
  gkBatchLine: BatchLineTable;
  sysUser: UserTable;
  sysRole: RoleTable;
  sysMenu: MenuTable;
  sysMenuSeed: MenuSeedTable;
  sysDept: DeptTable;
  sysPost: PostTable;
  sysUserRole: UserRoleTable;
  sysRoleMenu: RoleMenuTable;
  sysUserPost: UserPostTable;
  sysSession: SessionTable;
  sysLogininfor: LoginInfoTable;
  sysSmsCode: SmsCodeTable;
  sysPlatform: PlatformTable;
}

/* Volunteer planning (migration 005, docs/volunteer-api.md). Declared as an interface merge so the list above stays untouched. */
export interface VolStudentTable {
  studentId: Generated<number>;
  name: string;
  mobile: string | null;
  province: string;
  examYear: number;
  score: number | null;
  rank: number | null;
  rankFlag: string | null; // exact | interpolated | above-table | below-table | manual
  subjects: string; // '1,2,3'
  preferRegions: string; // JSON string[]
  preferLevels: string; // JSON string[]
  preferMajors: string; // JSON string[]
  tuitionCap: number | null;
  ownerId: number | null;
  remark: string | null;
  delFlag: string;
  createBy: number | null;
  createTime: number;
  updateTime: number | null;
  version: number;
}

export interface VolPlanTable {
  planId: Generated<number>;
  studentId: number;
  status: string; // draft | submitted | approved | rejected
  version: number;
  itemCount: number;
  createBy: number | null;
  createTime: number;
  updateBy: number | null;
  updateTime: number;
  submitBy: number | null;
  submitTime: number | null;
  reviewBy: number | null;
  reviewTime: number | null;
  reviewComment: string | null;
}

export interface VolPlanItemTable {
  planId: number;
  sort: number;
  lineId: number;
  schoolCode: string;
  schoolName: string | null;
  groupCode: string | null;
  majorName: string | null;
  minScore: number | null;
  minRank: number | null;
  tier: string | null;
  probability: number | null;
  obey: number | null;
}

export interface VolPlanSubmissionTable {
  submissionId: Generated<number>;
  planId: number;
  studentId: number;
  planVersion: number;
  itemCount: number;
  items: string; // JSON snapshot
  status: string; // submitted | approved | rejected | withdrawn
  submitBy: number;
  submitTime: number;
  reviewBy: number | null;
  reviewTime: number | null;
  comment: string | null;
}

export interface VolPlanActionTable {
  actionId: Generated<number>;
  studentId: number;
  planId: number | null;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  version: number | null;
  userId: number;
  userName: string;
  comment: string | null;
  createTime: number;
}

export interface VolLikeTable {
  likeId: Generated<number>;
  studentId: number;
  lineId: number;
  userId: number;
  createTime: number;
}

export interface VolAppointmentTable {
  appointmentId: Generated<number>;
  studentId: number;
  expertId: number;
  appointTime: number;
  duration: number;
  status: string; // pending | done | cancelled | remade
  remark: string | null;
  remadeFrom: number | null;
  delFlag: string;
  createBy: number | null;
  createTime: number;
  updateTime: number | null;
  version: number;
}

export interface VolShareTable {
  shareId: Generated<number>;
  tokenHash: string;
  studentId: number;
  createBy: number;
  createTime: number;
  expireTime: number;
  revoked: number;
}

export interface Database {
  volStudent: VolStudentTable;
  volPlan: VolPlanTable;
  volPlanItem: VolPlanItemTable;
  volPlanSubmission: VolPlanSubmissionTable;
  volPlanAction: VolPlanActionTable;
  volLike: VolLikeTable;
  volAppointment: VolAppointmentTable;
  volShare: VolShareTable;
}

/* Customers and membership cards (migration 012, server/customer/). Interface merges, so the lists above stay untouched. */
export interface UserTable {
  /** The staff member's store; null: none assigned (migration 023: nullable, no default; server/security/storeScope.ts). */
  storeId: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface VolStudentTable {
  storeId: Generated<number>;
  userType: Generated<number>; // spec §3: 0 ordinary, 1 志愿卡, 2 升学卡, 3 体验卡
  vipPayType: Generated<number>; // spec §3: 0 ordinary, 1 user binds card, 2 backend binds card, 3 online, 4 expert
  cusStatus: Generated<string>; // active | recycled | purged
  cardId: number | null;
  cardNo: number | null;
  vipExpireTime: number | null;
  recycleTime: number | null;
  appUserId: number | null;
  address: string | null;
  receiver: string | null;
  receiverMobile: string | null;
}

/* 专项资格 of a student (migration 021, engine/specialPlans.ts): a JSON string array of eligibility kinds. */
export interface VolStudentTable {
  specialEligibility: Generated<string>;
}

export interface CusStoreTable {
  storeId: Generated<number>;
  storeName: string;
  kind: string; // hq | agency
  balance: number; // fen
  status: string;
  createTime: number;
  version: number;
}

export interface CusBalanceLogTable {
  logId: Generated<number>;
  storeId: number;
  amount: number;
  balanceAfter: number;
  reason: string;
  refType: string | null;
  refId: number | null;
  userId: number | null;
  userName: string | null;
  createTime: number;
}

export interface CardCounterTable {
  counterId: number;
  nextNo: number;
}

export interface CardBatchTable {
  batchId: Generated<number>;
  storeId: number;
  kind: number;
  cardNum: number;
  vipPrice: number;
  totalFen: number;
  cardNoFirst: number;
  cardNoEnd: number;
  validDays: number;
  remark: string | null;
  downloadCount: Generated<number>;
  createBy: number | null;
  createByName: string | null;
  createTime: number;
}

export interface CardTable {
  cardId: Generated<number>;
  cardNo: number;
  batchId: number;
  storeId: number;
  kind: number;
  validDays: number;
  secretHash: string;
  secretEnc: string;
  status: string; // unused | activated | expired | voided
  studentId: number | null;
  activateTime: number | null;
  expireTime: number | null;
  voidTime: number | null;
  createTime: number;
  version: number;
}

export interface CardActionTable {
  actionId: Generated<number>;
  cardId: number | null;
  batchId: number | null;
  storeId: number | null;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  userId: number | null;
  userName: string | null;
  comment: string | null;
  createTime: number;
}

export interface CusActionTable {
  actionId: Generated<number>;
  studentId: number;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  userId: number | null;
  userName: string | null;
  comment: string | null;
  createTime: number;
}

export interface CusMemoTable {
  memoId: Generated<number>;
  studentId: number;
  storeId: number;
  content: string;
  createBy: number | null;
  createByName: string | null;
  createTime: number;
}

export interface CusMessageTable {
  messageId: Generated<number>;
  studentId: number;
  storeId: number;
  title: string;
  content: string;
  readStatus: number; // spec §4: 0 unread, 1 read
  readTime: number | null;
  createBy: number | null;
  createByName: string | null;
  createTime: number;
}

export interface CusDeliveryTable {
  deliveryId: Generated<number>;
  studentId: number;
  storeId: number;
  item: string;
  carrier: string;
  trackingNo: string;
  address: string | null;
  createBy: number | null;
  createByName: string | null;
  createTime: number;
}

export interface CusAppraisalTable {
  appraisalId: Generated<number>;
  studentId: number;
  storeId: number;
  answers: string;
  score: number;
  result: string;
  summary: string;
  expireTime: number;
  createTime: number;
}

export interface Database {
  cusStore: CusStoreTable;
  cusBalanceLog: CusBalanceLogTable;
  cardCounter: CardCounterTable;
  cardBatch: CardBatchTable;
  card: CardTable;
  cardAction: CardActionTable;
  cusAction: CusActionTable;
  cusMemo: CusMemoTable;
  cusMessage: CusMessageTable;
  cusDelivery: CusDeliveryTable;
  cusAppraisal: CusAppraisalTable;
}

// ---- 服务中心 work orders (migration 019, server/service/) ----

export interface SvcWorkOrderTable {
  workOrderId: Generated<number>;
  orderNo: string;
  type: number;
  form: string;
  status: number;
  storeId: number;
  title: string;
  content: string;
  attachments: string;
  studentId: number | null;
  cardNo: number | null;
  refOrderNo: string | null;
  submitBy: number;
  submitByName: string;
  assigneeId: number | null;
  assigneeName: string | null;
  reply: string | null;
  result: string | null;
  handleBy: number | null;
  handleByName: string | null;
  handleTime: number | null;
  createTime: number;
  updateTime: number | null;
  version: number;
}

export interface SvcWorkOrderLogTable {
  logId: Generated<number>;
  workOrderId: number;
  action: string;
  fromStatus: number | null;
  toStatus: number;
  userId: number | null;
  userName: string | null;
  comment: string | null;
  createTime: number;
}

export interface Database {
  svcWorkOrder: SvcWorkOrderTable;
  svcWorkOrderLog: SvcWorkOrderLogTable;
}

// ---- finance ledger, withdrawals, bank accounts, invoices (migration 016, server/finance/) ----

export interface FinAccountTable {
  accountId: Generated<number>;
  storeId: number; // 0 = the outside world
  kind: string; // balance | collection | payment | withdrawPending | revenue | world
  balance: number; // fen, cache of the sum of its entries
  version: number;
  createTime: number;
}

export interface FinTxnTable {
  txnId: Generated<number>;
  type: string;
  memo: string;
  refType: string | null;
  refId: string | null;
  idempotencyKey: string | null;
  userId: number | null;
  userName: string | null;
  createTime: number;
}

export interface FinEntryTable {
  entryId: Generated<number>;
  txnId: number;
  accountId: number;
  storeId: number;
  kind: string;
  amount: number; // signed fen
  balanceAfter: number;
  createTime: number;
}

export interface FinBankAccountTable {
  bankId: Generated<number>;
  storeId: number;
  accountName: string;
  bankName: string;
  branch: string | null;
  cardNo: string;
  verified: number; // 0 | 1
  verifiedBy: string | null;
  verifiedTime: number | null;
  status: string; // 0 in use, 1 removed
  createBy: string | null;
  createTime: number;
  version: number;
}

export interface FinWithdrawalTable {
  withdrawId: Generated<number>;
  storeId: number;
  bankId: number;
  amount: number; // fen
  accountName: string;
  bankName: string;
  cardNo: string;
  status: number; // 0 待审核, 1 已通过, 2 已驳回, 3 已打款
  remark: string | null;
  reason: string | null;
  bankRef: string | null;
  requestKey: string | null;
  createBy: string | null;
  createTime: number;
  updateTime: number | null;
  version: number;
}

export interface FinInvoiceHeaderTable {
  headerId: Generated<number>;
  storeId: number;
  title: string;
  taxNo: string;
  address: string | null;
  phone: string | null;
  bankName: string | null;
  bankAccount: string | null;
  status: string; // 0 in use, 1 removed
  createBy: string | null;
  createTime: number;
  version: number;
}

export interface FinInvoiceTable {
  invoiceId: Generated<number>;
  storeId: number;
  headerId: number;
  title: string;
  taxNo: string;
  headerJson: string;
  amount: number; // fen
  status: number; // 0 待开票, 1 已开票, 2 已驳回
  remark: string | null;
  reason: string | null;
  invoiceNo: string | null;
  fileName: string | null;
  filePath: string | null;
  createBy: string | null;
  createTime: number;
  updateTime: number | null;
  version: number;
}

export interface FinActionTable {
  actionId: Generated<number>;
  targetType: string; // withdrawal | invoice | bank
  targetId: number;
  storeId: number;
  action: string;
  fromStatus: number | null;
  toStatus: number | null;
  detail: string | null;
  userId: number | null;
  userName: string | null;
  createTime: number;
}

export interface Database {
  finAccount: FinAccountTable;
  finTxn: FinTxnTable;
  finEntry: FinEntryTable;
  finBankAccount: FinBankAccountTable;
  finWithdrawal: FinWithdrawalTable;
  finInvoiceHeader: FinInvoiceHeaderTable;
  finInvoice: FinInvoiceTable;
  finAction: FinActionTable;
}

// ---- finance payments: orders, notifications, recharge, coupons, sandbox provider (migration 017, server/finance/) ----

export interface FinPayOrderTable {
  orderNo: string;
  purpose: string; // recharge | renewal | card_purchase | customer_payment
  storeId: number;
  userId: number | null;
  userName: string | null;
  subject: string;
  provider: string; // sandbox | alipay | wechat | balance
  amountFen: number;
  originalFen: number;
  discountFen: number;
  couponId: number | null;
  status: string; // created | paid | refunded | closed
  providerTradeNo: string | null;
  meta: string | null;
  payUrl: string | null;
  qrCode: string | null;
  createTime: number;
  expireTime: number;
  paidTime: number | null;
  closeTime: number | null;
  refundTime: number | null;
  refundReason: string | null;
  version: number;
}

export interface FinPayNotificationTable {
  notifyId: Generated<number>;
  provider: string;
  orderNo: string | null;
  providerTradeNo: string | null;
  amountFen: number | null;
  outcome: string; // applied | duplicate | rejected | forged | late
  message: string | null;
  receivedTime: number;
}

export interface FinPayActionTable {
  actionId: Generated<number>;
  targetType: string;
  targetId: string;
  storeId: number;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  detail: string | null;
  userId: number | null;
  userName: string | null;
  createTime: number;
}

export interface FinRechargeTable {
  rechargeId: Generated<number>;
  storeId: number;
  method: string; // online | offline
  amountFen: number;
  status: string; // created | pending | done | rejected | closed
  orderNo: string | null;
  provider: string | null;
  voucherUrl: string | null;
  voucherName: string | null;
  remark: string | null;
  reason: string | null;
  createUserId: number | null;
  createBy: string | null;
  createTime: number;
  reviewBy: string | null;
  reviewTime: number | null;
  version: number;
}

export interface FinCouponBatchTable {
  batchId: Generated<number>;
  name: string;
  kind: string; // amount | discount
  amountFen: number;
  discountPct: number;
  minFen: number;
  validFrom: number;
  validTo: number;
  total: number;
  remaining: number;
  perUserLimit: number;
  status: string;
  createBy: string | null;
  createTime: number;
  updateTime: number | null;
  version: number;
}

export interface FinCouponTable {
  couponId: Generated<number>;
  batchId: number;
  userId: number;
  seq: number;
  status: string; // unused | locked | used
  orderNo: string | null;
  pullTime: number;
  useTime: number | null;
  version: number;
}

export interface FinSandboxTradeTable {
  tradeNo: string;
  orderNo: string;
  amountFen: number;
  subject: string;
  status: string; // WAIT | PAID | CLOSED | REFUNDED
  createTime: number;
  paidTime: number | null;
}

export interface Database {
  finPayOrder: FinPayOrderTable;
  finPayNotification: FinPayNotificationTable;
  finPayAction: FinPayActionTable;
  finRecharge: FinRechargeTable;
  finCouponBatch: FinCouponBatchTable;
  finCoupon: FinCouponTable;
  finSandboxTrade: FinSandboxTradeTable;
}

/* Home (migration 018, server/home/): daily figures, page views, fast menu. */
export interface HomeDailyTable {
  day: string; // YYYY-MM-DD, China time
  storeId: number; // 0 marks the day as computed
  newCustomers: number;
  activatedCards: number;
  submittedPlans: number;
  approvedPlans: number;
  revenue: number; // fen
  registrations: number;
  computedAt: number;
}

export interface HomePageViewTable {
  day: string;
  views: number;
}

export interface HomeFastPathTable {
  userId: number;
  menuId: number;
  sort: number;
  createTime: number;
}

export interface Database {
  homeDaily: HomeDailyTable;
  homePageView: HomePageViewTable;
  homeFastPath: HomeFastPathTable;
}

/** The query builder over these tables, a connection or a transaction: what the modules' functions take. */
export type Db = Kysely<Database>;

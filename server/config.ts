import path from 'node:path';
import { type RateLimitSettings, rateLimitsFromEnv } from './security/rateLimitSettings.js';
import { type SmsConfig, smsConfigFromEnv } from './sms/settings.js';

/** Runtime configuration, read once from the environment. Every knob is documented in README.md. */
export interface ServerConfig {
  /** NODE_ENV=production: the way to run for real (docs/production.md): no demo data, no payment sandbox, local listen address. */
  production: boolean;
  port: number;
  /** HOST; default 127.0.0.1 in production (a reverse proxy sits in front), 0.0.0.0 in development. */
  host: string;
  /** Folder for the SQLite file, generated keys and uploads. */
  dataDir: string;
  /** postgres://… switches storage from embedded SQLite to PostgreSQL. */
  databaseUrl?: string;
  /** PostgreSQL schema to use (tests isolate themselves in their own schema). */
  databaseSchema?: string;
  /** How far (ms) the Timer of a request may be from the server clock. */
  authWindowMs: number;
  /** How far (ms) a request's Timer may run ahead of the server clock (AUTH_FUTURE_SKEW_MS, default 60 s). */
  authFutureSkewMs: number;
  /** How long after its Timer a read may reuse a signature (AUTH_READ_REUSE_MS, default 30 s; 0: every one single-use). */
  authReadReuseMs: number;
  /** IDEMPOTENCY_WINDOW_MS: how long a money-moving request's Idempotency-Key is remembered (default 10 min). */
  idempotencyWindowMs: number;
  /** IDEMPOTENCY_DERIVED_WINDOW_MS: the same, for a key derived from the request itself (default 60 s). */
  idempotencyDerivedWindowMs: number;
  /** TRUST_PROXY: hops (a number) or addresses/CIDRs of the proxies whose X-Forwarded-For is believed; unset: none. */
  trustProxy: boolean | number | string;
  /** TOOLBOX_ORIGINS: origins (comma-separated) that 平台设置's toolbox address may point at, besides the built-in site. */
  toolboxOrigins: string[];
  /** IMPORT_MAX_BYTES / IMPORT_MAX_ROWS: caps of one spreadsheet import (default 10 MB, 50 000 rows). */
  importMaxBytes: number;
  importMaxRows: number;
  /** IMPORT_MAX_UNZIPPED_BYTES (default 100 MB): an .xlsx whose zip declares more uncompressed content is refused unparsed. */
  importMaxUnzippedBytes: number;
  /** IMPORT_PARSE_TIMEOUT_MS (default 60 s) / IMPORT_WORKER_MEMORY_MB (default 256): limits of the worker parsing an .xlsx. */
  importParseTimeoutMs: number;
  importWorkerMemoryMb: number;
  /** SESSION_KEYS (default 1): answers are wrapped with the signed-in console's own key, not the static response key. */
  sessionKeys: boolean;
  /** Session lifetime (ms): 15 days, like the Admin-Token cookie. */
  sessionTtlMs: number;
  /** Folder of the built console (vite build output). */
  staticDir: string;
  /** Write the demo data (accounts with published passwords, stores, students) on first start: SEED, default on except
   *  in production. The system essentials (platform row, roles, menus, reference data) are written in every mode. */
  seed: boolean;
  /** SMS_DRIVER (log, aliyun, tencent) and the provider's settings (server/sms/settings.ts); secrets never printed. */
  sms: SmsConfig;
  /** Logger on/off (tests run quiet). */
  logger: boolean;
  /** Folder of the schema files (docs/schemas.md); default: the repository's schemas/. */
  schemasDir?: string;
  /** GEN_WRITE=1: development mode for 代码生成 — 生成代码 may write schemas/<entity>.json (default off: preview / download only). */
  genWrite: boolean;
  /** Where uploaded files go (server/storage/): local disk (DATA_DIR/uploads, served at /profile/) or an S3-compatible bucket. */
  storage: StorageConfig;
  /** REDIS_URL: cache in Redis (shared by every process) instead of in-process memory (server/cache/). */
  redisUrl?: string;
  /** CACHE=off: no caching at all (measuring the cache's gain); default on. */
  cacheEnabled?: boolean;
  /** CACHE_PREFIX: namespace of the cache keys; default derived from the database, so processes sharing one share it. */
  cachePrefix?: string;
  /** METRICS_TOKEN: bearer token of GET /metrics; unset → /metrics answers 404. */
  metricsToken?: string;
  /** The job runner (server/monitor/runner.ts): JOBS=0 turns it off in this process; the rest are tuning knobs. */
  jobs?: { enabled?: boolean; tickMs?: number; leaseMs?: number; graceMs?: number };
  /** RATE_* variables: request limits of the public endpoints (server/security/rateLimits.ts); unset ones take the defaults. */
  rateLimits?: Partial<RateLimitSettings>;
}

/** STORAGE_DRIVER and the S3_* variables (README.md, configuration). */
export type StorageConfig =
  | { driver: 'local' }
  | {
      driver: 's3';
      /** S3_ENDPOINT: an S3-compatible service (MinIO, OSS, COS, R2 …); unset means AWS S3 itself. */
      endpoint?: string;
      bucket: string;
      region: string;
      /** S3_ACCESS_KEY / S3_SECRET_KEY; unset means the SDK's default credential chain (AWS_* variables, instance role). */
      accessKey?: string;
      secretKey?: string;
      /** S3_PUBLIC_URL: address under which objects are readable (CDN or bucket URL); `${publicUrl}/${key}` is a file's URL. */
      publicUrl?: string;
    };

export function storageFromEnv(env: NodeJS.ProcessEnv): StorageConfig {
  const driver = (env.STORAGE_DRIVER || 'local').trim().toLowerCase();
  if (driver === 'local') return { driver: 'local' };
  if (driver !== 's3') throw new Error(`STORAGE_DRIVER 取值无效：${env.STORAGE_DRIVER}（可选 local、s3）`);
  return {
    driver: 's3',
    endpoint: env.S3_ENDPOINT || undefined,
    bucket: env.S3_BUCKET ?? '',
    region: env.S3_REGION || 'us-east-1',
    accessKey: env.S3_ACCESS_KEY || undefined,
    secretKey: env.S3_SECRET_KEY || undefined,
    publicUrl: env.S3_PUBLIC_URL || undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  const production = isProduction(env);
  return {
    production,
    port: Number(env.PORT ?? 8080),
    // Production listens on the loopback only: the reverse proxy (TLS, TRUST_PROXY) is the one door; HOST opens others.
    host: env.HOST || (production ? '127.0.0.1' : '0.0.0.0'),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    authWindowMs: Number(env.AUTH_WINDOW_MS ?? 5 * 60 * 1000),
    authFutureSkewMs: Number(env.AUTH_FUTURE_SKEW_MS ?? 60 * 1000),
    authReadReuseMs: Number(env.AUTH_READ_REUSE_MS ?? 30 * 1000),
    idempotencyWindowMs: Number(env.IDEMPOTENCY_WINDOW_MS ?? 10 * 60 * 1000),
    idempotencyDerivedWindowMs: Number(env.IDEMPOTENCY_DERIVED_WINDOW_MS ?? 60 * 1000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    toolboxOrigins: (env.TOOLBOX_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter(Boolean),
    importMaxBytes: Number(env.IMPORT_MAX_BYTES ?? 10 * 1024 * 1024),
    importMaxRows: Number(env.IMPORT_MAX_ROWS ?? 50_000),
    importMaxUnzippedBytes: Number(env.IMPORT_MAX_UNZIPPED_BYTES ?? 100 * 1024 * 1024),
    importParseTimeoutMs: Number(env.IMPORT_PARSE_TIMEOUT_MS ?? 60_000),
    importWorkerMemoryMb: Number(env.IMPORT_WORKER_MEMORY_MB ?? 256),
    sessionKeys: env.SESSION_KEYS !== '0',
    sessionTtlMs: 15 * 24 * 60 * 60 * 1000,
    staticDir: path.resolve(env.STATIC_DIR ?? './dist'),
    // Production never seeds demo data; SEED=1 there is refused at start (startRefusals) rather than obeyed.
    seed: env.SEED === '1' || (env.SEED !== '0' && !production),
    sms: smsConfigFromEnv(env),
    logger: env.LOG !== '0',
    schemasDir: env.SCHEMAS_DIR ? path.resolve(env.SCHEMAS_DIR) : undefined,
    storage: storageFromEnv(env),
    genWrite: env.GEN_WRITE === '1',
    redisUrl: env.REDIS_URL || undefined,
    cacheEnabled: env.CACHE !== 'off',
    cachePrefix: env.CACHE_PREFIX || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    rateLimits: rateLimitsFromEnv(env),
    jobs: {
      enabled: env.JOBS !== '0',
      tickMs: Number(env.JOB_TICK_MS ?? 1000),
      leaseMs: Number(env.JOB_LEASE_MS ?? 30_000),
      graceMs: Number(env.JOB_GRACE_MS ?? 5000),
    },
    ...overrides,
  };
}

export const isProduction = (env: NodeJS.ProcessEnv): boolean => env.NODE_ENV === 'production';

/**
 * Settings a production server refuses to start with (each an operator-facing message saying what to change), checked
 * by server/main.ts before anything is opened. The payment sandbox has its own check (server/finance/pay/index.ts).
 */
export function startRefusals(env: NodeJS.ProcessEnv): string[] {
  if (!isProduction(env)) return [];
  const refusals: string[] = [];
  if (env.SEED === '1') {
    refusals.push(
      '生产模式（NODE_ENV=production）不能写入演示数据：SEED=1 会创建 admin/admin123 等密码公开的演示账号。' +
        '请去掉 SEED 或设为 0；第一个管理员用 npm run admin:create 创建。',
    );
  }
  return refusals;
}

/** postgres://user:secret@host:5432/db → host:5432/db: where a service is, never its user or password. */
export function describeAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '（地址无法解析）';
  }
}

/** What start-up learned besides the configuration (server/main.ts). */
export interface StartupFacts {
  /** The online payment providers offered (server/finance/pay/index.ts), sandbox included. */
  payProviders: string[];
  /** Users in the database (0: nobody can sign in until npm run admin:create). */
  users: number;
  /** Publish time of the console build served from staticDir; '' when there is none. */
  consoleBuild: string;
}

const PAY_TITLES: Record<string, string> = { sandbox: '模拟支付（沙箱）', alipay: '支付宝', wechat: '微信支付' };

/**
 * The start-up summary (Chinese, one line each): what this server runs with, so an operator sees at a glance a
 * sandbox left on, demo data in a real install, or the wrong database. Addresses carry no password.
 */
export function startupSummary(config: ServerConfig, facts: StartupFacts): string[] {
  const mode = config.production ? '生产（NODE_ENV=production）' : '开发/演示（未设置 NODE_ENV=production）';
  const everywhere = config.host === '0.0.0.0' || config.host === '::';
  const listen = `${config.host}:${config.port}${everywhere ? '（所有网卡，局域网内可访问）' : config.host === '127.0.0.1' || config.host === 'localhost' ? '（仅本机，由反向代理对外）' : ''}`;
  const database = config.databaseUrl
    ? `PostgreSQL ${describeAddress(config.databaseUrl)}${config.databaseSchema ? `（schema ${config.databaseSchema}）` : ''}`
    : `SQLite ${path.join(config.dataDir, 'zhiyuan.sqlite')}`;
  const cache =
    config.cacheEnabled === false
      ? '关闭（CACHE=off）'
      : config.redisUrl
        ? `Redis ${describeAddress(config.redisUrl)}（多个进程共享）`
        : '进程内存（仅限单个进程）';
  const jobs = config.jobs?.enabled === false ? '关闭（JOBS=0，本进程不运行定时任务）' : '开启';
  const sandbox = facts.payProviders.includes('sandbox');
  const pay = facts.payProviders.length
    ? `${facts.payProviders.map((p) => PAY_TITLES[p] ?? p).join('、')}${sandbox ? '——沙箱让任何人不付款即可“支付”，只用于开发和测试' : ''}`
    : '未配置在线支付（支付宝、微信支付见 docs/finance-payments.md）';
  const sms = describeSms(config.sms);
  const storage =
    config.storage.driver === 'local'
      ? `本地磁盘 ${path.join(config.dataDir, 'uploads')}`
      : `S3 存储桶 ${config.storage.bucket}${config.storage.endpoint ? `（${describeAddress(config.storage.endpoint)}）` : '（AWS S3）'}`;
  const seed = config.seed ? '开启（首次启动写入演示账号、门店和学生；演示账号密码是公开的）' : '关闭（只写入系统必需的角色、菜单和参考数据）';
  const consoleDir = facts.consoleBuild
    ? `${config.staticDir}（构建于 ${facts.consoleBuild}）`
    : `未找到构建 ${config.staticDir}，只提供接口（先运行 npm run build）`;
  return [
    `运行模式：${mode}`,
    `监听地址：${listen}`,
    `数据库：${database}`,
    `缓存：${cache}`,
    `定时任务：${jobs}`,
    `在线支付：${pay}`,
    `短信：${sms}`,
    `文件存储：${storage}`,
    `演示数据：${seed}`,
    `控制台：${consoleDir}`,
    `账号：${facts.users > 0 ? `${facts.users} 个` : '还没有任何账号'}`,
  ];
}

/** The SMS line of the summary: the driver and the sign name, never a key or secret. */
function describeSms(sms: SmsConfig): string {
  switch (sms.driver) {
    case 'log':
      return '日志驱动（不真正发送短信，验证码写入服务器日志）';
    case 'aliyun':
      return `阿里云短信（签名“${sms.signName}”${sms.endpoint ? `，${sms.endpoint.protocol}://${sms.endpoint.host}` : ''}）`;
    case 'tencent':
      return `腾讯云短信（签名“${sms.signName}”${sms.endpoint ? `，${sms.endpoint.protocol}://${sms.endpoint.host}` : ''}）`;
  }
}

/** TRUST_PROXY=1 / 2 … (hops), true, or a list of proxy addresses; unset or 0: the socket address is the client. */
function parseTrustProxy(raw: string | undefined): boolean | number | string {
  const v = (raw ?? '').trim();
  if (!v || v === '0' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

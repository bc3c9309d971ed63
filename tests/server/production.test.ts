import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, startRefusals } from '../../server/config.js';
import { openDatabase } from '../../server/db/connection.js';
import { payStartRefusal } from '../../server/finance/pay/index.js';
import { decryptWithPem, signTimer } from '../../server/security/protocol.js';
import { freePort } from '../processes.js';
import { type Backend, backends, dropTestSchema, startServer, type TestServer } from './harness.js';

/**
 * Production mode (docs/production.md), the CI production path without containers: the real entry points run as
 * processes — `npm run admin:create` (server/cli/admin-create.ts), `npm start` (scripts/start.mjs) and the server
 * (server/main.ts) with NODE_ENV=production — on a fresh data dir (and a fresh PostgreSQL schema with
 * TEST_DATABASE_URL), signing in through the encrypted API over HTTP the way the console does.
 * The tests never build the console: the server serves the existing dist/ when there is one, else a tiny stand-in;
 * npm start's refusals are checked against stand-in folders.
 */

const root = path.resolve(import.meta.dirname, '../..');
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;
const PROCESS_MS = 90_000;
const START_MS = 110_000;

/** The parent's environment without anything that would change the mode under test. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['NODE_ENV', 'SEED', 'PAY_SANDBOX', 'HOST', 'PORT', 'DATA_DIR', 'DATABASE_URL', 'DATABASE_SCHEMA', 'STATIC_DIR', 'REDIS_URL', 'LOG', 'CACHE'])
    delete env[k];
  return { ...env, ...extra };
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (node + args, in the repository). */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} did not finish in ${PROCESS_MS} ms\n${stdout}\n${stderr}`));
    }, PROCESS_MS);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const adminCreate = (args: string[], env: NodeJS.ProcessEnv) => run(['--import', 'tsx', 'server/cli/admin-create.ts', ...args], env);

/** A stand-in console build: what npm start and the server look at (index.html and its date, publish-time.txt). */
function fakeBuild(mtime?: Date): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-prod-build-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  fs.writeFileSync(path.join(dir, 'publish-time.txt'), '2026-01-01T00:00:00.000Z');
  if (mtime) fs.utimesSync(path.join(dir, 'index.html'), mtime, mtime);
  return dir;
}

/** An address of this machine other than the loopback, if it has one. */
function externalAddress(): string | undefined {
  for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  return undefined;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A running `server/main.ts` process and what it logged. */
class ServerProcess {
  output = '';
  exited: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(
    env: NodeJS.ProcessEnv,
    readonly port: number,
    /** Start as `npm start` does (scripts/start.mjs: refuses a missing or stale build, then runs the server). */
    viaStart = false,
  ) {
    const args = viaStart ? ['scripts/start.mjs'] : ['--import', 'tsx', 'server/main.ts'];
    this.child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (d) => {
      this.output += d;
    });
    this.child.stderr?.on('data', (d) => {
      this.output += d;
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Resolves once /health answers; fails with the process's output if it exits or never answers. */
  async ready(): Promise<void> {
    let exitedWith: number | null | undefined;
    void this.exited.then((code) => {
      exitedWith = code;
    });
    const until = Date.now() + START_MS;
    for (;;) {
      if (exitedWith !== undefined) throw new Error(`server exited (${exitedWith}) before answering:\n${this.output}`);
      try {
        if ((await fetch(`${this.base}/health`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > until) throw new Error(`server did not answer /health in ${START_MS} ms:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** The messages of the JSON log lines. */
  messages(): string[] {
    return this.output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => {
        try {
          return String((JSON.parse(l) as { msg?: unknown }).msg ?? '');
        } catch {
          return '';
        }
      });
  }

  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    const stopped = await Promise.race([this.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 15_000))]);
    if (!stopped) this.child.kill('SIGKILL');
  }
}

interface Keys {
  requestPublicKey: string;
  responsePrivateKey: string;
  demoAccounts?: boolean;
}

/** The console's start: /app-config.js hands it the key halves (and the demo flag). */
async function appConfig(base: string): Promise<Keys> {
  const text = await (await fetch(`${base}/app-config.js`)).text();
  const json = /^window\.__APP_CONFIG__ = (.*);\s*$/s.exec(text)?.[1];
  if (!json) throw new Error(`unexpected /app-config.js: ${text.slice(0, 200)}`);
  return JSON.parse(json) as Keys;
}

interface Envelope<D = unknown> {
  code: number;
  msg: string;
  data?: D;
  token?: string;
}

/** An API call as the console makes it: Timer + Authentication signed with the published request key. */
async function api<D = unknown>(base: string, keys: Keys, url: string, body: unknown = {}, token?: string): Promise<Envelope<D>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...signTimer(keys.requestPublicKey) };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return (await res.json()) as Envelope<D>;
}

function databaseEnv(backend: Backend, dataDir: string): { env: Record<string, string>; schema?: string } {
  if (backend === 'sqlite') return { env: { DATA_DIR: dataDir } };
  const schema = `t_prod_${crypto.randomBytes(5).toString('hex')}`;
  return { env: { DATA_DIR: dataDir, DATABASE_URL: TEST_DATABASE_URL ?? '', DATABASE_SCHEMA: schema }, schema };
}

describe('production settings', () => {
  it('listen on the loopback only, without demo data, unless HOST says otherwise; development keeps its defaults', () => {
    expect(loadConfig({ NODE_ENV: 'production' })).toMatchObject({ production: true, host: '127.0.0.1', seed: false });
    expect(loadConfig({ NODE_ENV: 'production', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({})).toMatchObject({ production: false, host: '0.0.0.0', seed: true });
    expect(loadConfig({ SEED: '0' }).seed).toBe(false);
  });

  it('refuse demo data and the payment sandbox in production only', () => {
    expect(startRefusals({ NODE_ENV: 'production' })).toEqual([]);
    expect(startRefusals({ NODE_ENV: 'production', SEED: '1' })[0]).toContain('SEED');
    expect(startRefusals({ SEED: '1' })).toEqual([]);
    expect(payStartRefusal({ NODE_ENV: 'production' })).toBeNull();
    expect(payStartRefusal({ NODE_ENV: 'production', PAY_SANDBOX: '1' })).toContain('PAY_SANDBOX');
    expect(payStartRefusal({ PAY_SANDBOX: '1' })).toBeNull();
  });
});

describe('refusals at start (processes)', () => {
  const dirs: string[] = [];
  const tmp = (d: string) => {
    dirs.push(d);
    return d;
  };
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('the server refuses the payment sandbox forced on, before opening anything', async () => {
    const dataDir = path.join(tmp(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-prod-'))), 'data');
    const res = await run(['--import', 'tsx', 'server/main.ts'], cleanEnv({ NODE_ENV: 'production', PAY_SANDBOX: '1', DATA_DIR: dataDir, PORT: '1' }));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('无法启动：生产模式（NODE_ENV=production）不能开启模拟支付');
    expect(res.stderr).toContain('请去掉 PAY_SANDBOX 或设为 0');
    expect(fs.existsSync(dataDir)).toBe(false);
  });

  it('npm start refuses a missing console build and does not build', async () => {
    const empty = tmp(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-prod-build-')));
    const res = await run(['scripts/start.mjs'], cleanEnv({ NODE_ENV: 'production', STATIC_DIR: empty, DATA_DIR: path.join(empty, 'data') }));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('找不到控制台构建');
    expect(res.stderr).toContain('请先运行 npm run build，再运行 npm start');
    expect(fs.readdirSync(empty)).toEqual([]);
  });

  it('npm start refuses a console build older than its sources and leaves it alone', async () => {
    const old = new Date('2000-01-01T00:00:00Z');
    const stale = tmp(fakeBuild(old));
    const res = await run(['scripts/start.mjs'], cleanEnv({ NODE_ENV: 'production', STATIC_DIR: stale, DATA_DIR: path.join(stale, 'data') }));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('控制台构建已过期');
    expect(res.stderr).toContain('请先运行 npm run build');
    expect(fs.statSync(path.join(stale, 'index.html')).mtimeMs).toBe(old.getTime());
  });

  it('npm start hands a fresh build to the server, which refuses demo data in production', async () => {
    const future = new Date(Date.now() + 24 * 3600 * 1000); // newer than any source file
    const fresh = tmp(fakeBuild(future));
    const dataDir = path.join(fresh, 'data');
    const res = await run(['scripts/start.mjs'], cleanEnv({ NODE_ENV: 'production', SEED: '1', STATIC_DIR: fresh, DATA_DIR: dataDir, PORT: '1' }));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('无法启动：生产模式（NODE_ENV=production）不能写入演示数据');
    expect(res.stderr).toContain('npm run admin:create');
    expect(res.stderr).not.toContain('控制台构建');
    expect(res.stdout).not.toContain('构建');
    expect(fs.existsSync(dataDir)).toBe(false);
  });
});

describe.each(backends)('production start on a new database (%s)', (backend) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-prod-data-'));
  const db = databaseEnv(backend, dataDir);
  // The existing console build when there is one (never built here), else a stand-in. `npm test` runs this file a
  // second time right after its build step with PRODUCTION_PATH=1: then the real build is required and the server is
  // started the way an operator starts it (npm start), so CI walks build → admin:create → production start → sign-in.
  const productionPath = process.env.PRODUCTION_PATH === '1';
  const realBuild = fs.existsSync(path.join(root, 'dist', 'index.html'));
  if (productionPath && !realBuild) throw new Error('PRODUCTION_PATH=1 needs the console build in dist/ (npm run build)');
  const staticDir = realBuild ? path.join(root, 'dist') : fakeBuild();
  let server: ServerProcess;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const port = await freePort();
    env = cleanEnv({ NODE_ENV: 'production', PORT: String(port), JOBS: '0', STATIC_DIR: staticDir, ...db.env });
    server = new ServerProcess(env, port, productionPath);
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
    await dropTestSchema(db.schema);
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (!realBuild) fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it('starts without any account and says how to make the first administrator', async () => {
    expect(server.messages()).toContain(
      '还没有任何账号，控制台无法登录：请在服务器上运行 npm run admin:create 创建第一个管理员（数据库与本服务相同：同样的 DATA_DIR 或 DATABASE_URL）。',
    );
    const keys = await appConfig(server.base);
    // The sign-in page works (the platform row is there) and names no demo account.
    expect(keys.demoAccounts).toBe(false);
    const info = await api<{ title: string; registerEnabled: boolean }>(server.base, keys, '/appv2/api/index/platformInfo');
    expect(info.code).toBe(200);
    expect(info.data).toMatchObject({ title: '志愿填报管理系统', registerEnabled: false });
    const demo = await api(server.base, keys, '/dev-api/api/login/login', { username: 'admin', password: 'admin123' });
    expect(demo.msg).toContain('账号或密码错误');
    expect(demo.msg).not.toContain('系统内部错误');
  });

  it('prints what is on: production, loopback address, no sandbox, no demo data, the database without its password', () => {
    const summary = server
      .messages()
      .filter((m) => m.startsWith('启动概要 · '))
      .map((m) => m.slice('启动概要 · '.length));
    expect(summary).toContain('运行模式：生产（NODE_ENV=production）');
    expect(summary).toContain(`监听地址：127.0.0.1:${server.port}（仅本机，由反向代理对外）`);
    expect(summary).toContain('在线支付：未配置在线支付（支付宝、微信支付见 docs/finance-payments.md）');
    expect(summary).toContain('演示数据：关闭（只写入系统必需的角色、菜单和参考数据）');
    expect(summary).toContain('定时任务：关闭（JOBS=0，本进程不运行定时任务）');
    const database = summary.find((l) => l.startsWith('数据库：'));
    if (backend === 'sqlite') expect(database).toBe(`数据库：SQLite ${path.join(dataDir, 'zhiyuan.sqlite')}`);
    else {
      const url = new URL(TEST_DATABASE_URL ?? '');
      expect(database).toBe(`数据库：PostgreSQL ${url.hostname}:${url.port || '5432'}${url.pathname}（schema ${db.schema}）`);
      expect(server.output).not.toContain(`${url.username}:${url.password}@`);
    }
  });

  it.skipIf(!externalAddress())('is not reachable on the machine’s other addresses', async () => {
    expect(await connects('127.0.0.1', server.port)).toBe(true);
    expect(await connects(externalAddress() as string, server.port)).toBe(false);
  });

  it('admin:create makes the first administrator, who signs in through the encrypted API and sees the menus', async () => {
    const made = await adminCreate(['--username', 'chief', '--password', 'Zy-first-2026'], env);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('已创建管理员“chief”（超级管理员，用户编号 1）。');

    const keys = await appConfig(server.base);
    const login = await api<{ token: string }>(server.base, keys, '/dev-api/api/login/login', { username: 'chief', password: 'Zy-first-2026' });
    expect(login.msg).toBe('登录成功');
    const token = login.data?.token as string;
    // An encrypted answer (authEncode=1), opened with the response key the console received.
    const me = await api<string>(server.base, keys, '/appv2/api/apply/userInfo', { authEncode: 1 }, token);
    expect(me.code).toBe(20000);
    expect(decryptWithPem(keys.responsePrivateKey, me.data as string)).toMatchObject({ userName: 'chief', realName: '系统管理员', roles: ['admin'] });
    const rules = await api<Array<{ meta: { title: string } }>>(server.base, keys, '/dev-api/api/auth/getRuleList', {}, token);
    expect(rules.code).toBe(200);
    expect(rules.data?.map((r) => r.meta.title)).toContain('系统管理');
  });

  it.runIf(realBuild)('serves the built console itself: the page and the chunks it names', async () => {
    const page = await fetch(`${server.base}/login`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const chunk = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(chunk, 'index.html names its entry chunk').toBeTruthy();
    const script = await fetch(`${server.base}${chunk}`, { headers: { 'accept-encoding': 'br' } });
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('admin:create refuses an existing account and a password outside the rules', async () => {
    const again = await adminCreate(['--username', 'chief', '--password', 'Another-2026'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('创建管理员失败：账号“chief”已存在，没有做任何修改。');
    const short = await adminCreate(['--username', 'second', '--password', 'abc12'], env);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('创建管理员失败：密码长度必须在 6 到 20 个字符之间');
    const keys = await appConfig(server.base);
    // The first administrator's password is untouched; the refused account does not exist.
    expect((await api(server.base, keys, '/dev-api/api/login/login', { username: 'chief', password: 'Zy-first-2026' })).msg).toBe('登录成功');
    expect((await api(server.base, keys, '/dev-api/api/login/login', { username: 'second', password: 'abc12' })).msg).toContain('账号或密码错误');
  });
});

describe.each(backends)('admin:create on a database that does not exist yet (%s)', (backend) => {
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-prod-cli-')), 'data');
  const db = databaseEnv(backend, dataDir);
  afterAll(async () => {
    await dropTestSchema(db.schema);
    fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  it('creates the tables and the built-in roles and menus first, then administrator 1 — no demo data', async () => {
    const made = await adminCreate(['--username', 'boss', '--password', 'Boss_pass_1', '--nickname', '张校长'], cleanEnv(db.env));
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('已创建管理员“boss”（超级管理员，用户编号 1）。');
    const opened = await openDatabase(loadConfig({}, { dataDir, databaseUrl: db.env.DATABASE_URL, databaseSchema: db.schema, logger: false }));
    try {
      const k = opened.kysely;
      const users = await k
        .selectFrom('sysUser')
        .innerJoin('sysUserRole', 'sysUserRole.userId', 'sysUser.userId')
        .innerJoin('sysRole', 'sysRole.roleId', 'sysUserRole.roleId')
        .select(['sysUser.userId', 'sysUser.userName', 'sysUser.nickName', 'sysRole.roleKey'])
        .execute();
      expect(users.map((u) => ({ ...u, userId: Number(u.userId) }))).toEqual([{ userId: 1, userName: 'boss', nickName: '张校长', roleKey: 'admin' }]);
      const roles = await k.selectFrom('sysRole').select('roleKey').orderBy('roleId').execute();
      expect(roles.map((r) => r.roleKey)).toEqual(['admin', 'leader', 'expert', 'operator', 'common']);
      const menus = await k
        .selectFrom('sysMenu')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(menus.n)).toBeGreaterThan(50);
      // No demo store: headquarters only (migration 012).
      expect((await k.selectFrom('cusStore').select('storeId').execute()).map((s) => Number(s.storeId))).toEqual([1]);
    } finally {
      await opened.close();
    }
  });
});

describe('admin:create in a terminal', () => {
  const hasScript = fs.existsSync('/usr/bin/script');
  const dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-prod-tty-')), 'data');
  afterAll(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  // util-linux `script` gives the command a terminal; each answer is typed once its prompt is shown, like a person.
  it.skipIf(!hasScript)('asks for the account and the password twice, without showing the password', async () => {
    const child = spawn('/usr/bin/script', ['-qfec', `${process.execPath} --import tsx server/cli/admin-create.ts`, '/dev/null'], {
      cwd: root,
      env: cleanEnv({ DATA_DIR: dataDir }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    child.stdout.on('data', (d) => {
      screen += d;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const shown = async (text: string, times = 1) => {
      const until = Date.now() + PROCESS_MS;
      while (screen.split(text).length - 1 < times) {
        if (Date.now() > until) throw new Error(`never showed “${text}”:\n${screen}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await shown('管理员账号');
    child.stdin.write('typed_admin\r');
    await shown('密码（');
    child.stdin.write('Hidden-pass-9\r');
    await shown('再次输入密码');
    child.stdin.write('Hidden-pass-9\r');
    expect(await exited).toBe(0);
    expect(screen).toContain('已创建管理员“typed_admin”');
    expect(screen).not.toContain('Hidden-pass-9');
  });
});

describe.each(backends)('SEED=0 without production (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(backend, { seed: false });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('has the built-in roles and menus but no account, and the sign-in page answers properly', async () => {
    const k = s.app.db.kysely;
    expect((await k.selectFrom('sysRole').select('roleKey').execute()).length).toBe(5);
    expect((await k.selectFrom('sysUser').select('userId').execute()).length).toBe(0);
    const info = await s.call<{ registerEnabled: boolean }>('POST', '/appv2/api/index/platformInfo');
    expect(info.body.code).toBe(200);
    const login = await s.call('POST', '/dev-api/api/login/login', { body: { username: 'admin', password: 'admin123' } });
    expect(login.body.msg).toContain('账号或密码错误');
    const config = await s.call('GET', '/app-config.js', { sign: false });
    expect(config.raw).toContain('"demoAccounts":false');
  });
});

describe('demo data on (development)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('sqlite');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('tells the sign-in page to name the demo account while admin / admin123 signs in', async () => {
    expect((await s.call('GET', '/app-config.js', { sign: false })).raw).toContain('"demoAccounts":true');
  });
});

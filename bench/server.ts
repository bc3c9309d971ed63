import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../server/config.js';
import { type Db, openDatabase } from '../server/db/connection.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningServer {
  base: string;
  dataDir: string;
  pid: number;
  /** Why the server process ended, when it did on its own (crash, or killed from outside), with its output. */
  died(): string | null;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as net.AddressInfo;
  srv.close();
  await once(srv, 'close');
  return port;
}

/**
 * Starts the real reference server (server/main.ts) as a child process on a free port with a fresh data folder:
 * embedded SQLite, seeded demo data, logging off. Keys are generated into dataDir/keys on start.
 */
export async function startServer(dataDir: string, options: { staticDir?: string; env?: NodeJS.ProcessEnv } = {}): Promise<RunningServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG: '0', SEED: '1' };
  // Always the embedded SQLite of the fresh data folder, the default auth window, and no console bundle to serve.
  delete env.DATABASE_URL;
  delete env.DATABASE_SCHEMA;
  delete env.AUTH_WINDOW_MS;
  // bench/console.ts passes a console build of its own to drive it in Chromium.
  env.STATIC_DIR = options.staticDir ?? path.join(dataDir, 'no-console');
  // bench/cluster.ts runs the same server on PostgreSQL and Redis (DATABASE_URL, DATABASE_SCHEMA, REDIS_URL).
  Object.assign(env, options.env);
  // The benches sign in many sessions from 127.0.0.1 within a minute: the public-endpoint limits (server/security/
  // rateLimits.ts) are off here unless the caller set them.
  for (const name of [
    'RATE_LOGIN_PER_MINUTE',
    'RATE_LOGIN_PER_HOUR',
    'RATE_SMS_PER_NUMBER_HOUR',
    'RATE_SMS_PER_ADDRESS_HOUR',
    'RATE_REGISTER_PER_HOUR',
    'RATE_PAGES_PER_MINUTE',
  ])
    env[name] ??= '0';

  // BENCH_SERVER_NODE_ARGS: extra Node flags for the server only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile
  // the server under a bench's load (NODE_OPTIONS refuses --cpu-prof).
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...extra, '--import', 'tsx', 'server/main.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  let exited: number | null | undefined;
  let exitSignal: NodeJS.Signals | null = null;
  let stopping = false;
  child.on('exit', (code, signal) => {
    exited = code;
    exitSignal = signal;
  });
  const died = () =>
    exited === undefined || stopping
      ? null
      : `服务端进程 ${child.pid} 意外退出（退出码 ${exited}，信号 ${exitSignal ?? '无'}）${output ? `：\n${output}` : ''}`;

  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (exited !== undefined || child.pid === undefined) return;
    stopping = true;
    const gone = once(child, 'exit');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  };

  // Generous: on a loaded 2-core machine the first start (migrations, seed, key generation) can take most of a minute.
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`服务端启动失败（退出码 ${exited}）：\n${output}`);
    try {
      // Any HTTP answer (a 404 envelope) means the server listens.
      await fetch(`${base}/dev-api/bench-ready`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`服务端 120 秒内未就绪：\n${output}`);
      }
      await sleep(100);
    }
  }
  if (!fs.existsSync(path.join(dataDir, 'keys', 'request-public.pem'))) {
    await stop();
    throw new Error('服务端未生成密钥（DATA_DIR/keys）');
  }
  return { base, dataDir, pid: child.pid as number, died, stop };
}

/**
 * The running server's SQLite file, opened from the bench process (WAL: both processes may read and write it; the
 * server sees committed rows on its next query). For bulk set-up and for timing service functions without HTTP.
 */
export function openServerDatabase(dataDir: string): Promise<Db> {
  return openDatabase(loadConfig({}, { dataDir, logger: false }));
}

/** Resident set size and its high-water mark (KiB) of a process, from /proc/<pid>/status (Linux). */
export function processMemory(pid: number): { rssKiB: number; hwmKiB: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssKiB: kib('VmRSS'), hwmKiB: kib('VmHWM') };
}

/** Resets a process's VmHWM to its current RSS (writing 5 to /proc/<pid>/clear_refs); false when not allowed. */
export function resetPeakMemory(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

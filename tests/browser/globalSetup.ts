import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../processes.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    dataDir: string;
  }
}

const root = path.resolve(import.meta.dirname, '../..');

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`服务未在 ${timeoutMs} ms 内启动：${url}`);
}

let server: ChildProcess | undefined;

/** The real server (same entry as `npm start`) on the built console, a free port and a throw-away data dir. */
export default async function setup(project: TestProject) {
  // STATIC_DIR (as for the server) lets a developer test another build than dist/ (vite build --outDir …).
  const staticDir = path.resolve(root, process.env.STATIC_DIR ?? 'dist');
  if (!fs.existsSync(path.join(staticDir, 'index.html'))) throw new Error(`缺少 ${staticDir}：先运行 npm run build`);
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-browser-'));
  server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    // The data `npm start` loads (vitest's env would skip them): 山东 2021–2025 with the subject requirements
    // (ADMISSION_HISTORY) and the 3+1+2 provinces 湖北, 广东 (GROUP_PROVINCES).
    env: {
      ...process.env,
      STATIC_DIR: staticDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG: '0',
      DATABASE_URL: '',
      ADMISSION_HISTORY: '1',
      GROUP_PROVINCES: '1',
      // The whole suite signs in from 127.0.0.1: far above the public request limits (server/security/rateLimits.ts).
      RATE_LOGIN_PER_MINUTE: '100000',
      RATE_LOGIN_PER_HOUR: '100000',
      RATE_SMS_PER_NUMBER_HOUR: '100000',
      RATE_SMS_PER_ADDRESS_HOUR: '100000',
      RATE_REGISTER_PER_HOUR: '100000',
      RATE_PAGES_PER_MINUTE: '100000',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  // Start-up migrates, seeds and syncs every schema: 10–30 s on a busy 2-core machine.
  await waitFor(`${baseURL}/app-config.js`, 120000);
  project.provide('baseURL', baseURL);
  project.provide('dataDir', dataDir);
  return async () => {
    server?.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}

#!/usr/bin/env node
// `npm run build`: builds the console into a temporary folder and swaps it into dist/ (or STATIC_DIR) by rename, so
// a server reading the folder never sees a half-written build, and two builds at once never write into one folder.
// One build at a time per folder (a lock file); `--if-stale` builds only when the build is missing or older than its
// sources, checked again once the lock is held (so of two `npm start`s at once, the second uses the first's build).
// Exit code 0 when the folder holds a fresh build afterwards. docs/production.md, "Building the console".
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const root = path.resolve(import.meta.dirname, '..');

/** What the console build is made from: a build older than any of these files is stale. */
export const BUILD_SOURCES = ['src', 'common', 'public', 'schemas', 'index.html', 'vite.config.ts', 'package-lock.json'];

/** The folder the server serves the console from (STATIC_DIR, default dist/), as server/config.ts resolves it. */
export function staticDirOf(env = process.env) {
  return path.resolve(root, env.STATIC_DIR || 'dist');
}

/** A folder as the operator knows it: relative inside the repository (dist), absolute elsewhere. */
export function shownPath(dir) {
  const relative = path.relative(root, dir);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : dir;
}

function newestFile(target) {
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return { file: target, mtimeMs: stat.mtimeMs };
  let newest = { file: target, mtimeMs: 0 };
  for (const entry of fs.readdirSync(target)) {
    const found = newestFile(path.join(target, entry));
    if (found.mtimeMs > newest.mtimeMs) newest = found;
  }
  return newest;
}

/**
 * The build in `dir`: 'missing' (no index.html), 'stale' (a source file is newer: `newer` names it, relative to the
 * repository) or 'fresh'. A build's time is when it started (scripts/build.mjs dates index.html so), so a file saved
 * while it ran counts as newer.
 */
export function buildState(dir = staticDirOf()) {
  const index = path.join(dir, 'index.html');
  if (!fs.existsSync(index)) return { state: 'missing' };
  const builtAt = fs.statSync(index).mtimeMs;
  const sources = BUILD_SOURCES.map((p) => path.join(root, p)).filter((p) => fs.existsSync(p));
  if (sources.length === 0) return { state: 'fresh' }; // a deployment shipped without sources: nothing to compare
  const newest = sources.map(newestFile).reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a));
  return newest.mtimeMs > builtAt ? { state: 'stale', newer: path.relative(root, newest.file) } : { state: 'fresh' };
}

/**
 * Where temporary builds and the lock live: node_modules/.cache (ignored by git, the linter and the file watchers) when
 * it is on the same file system as the target, else beside the target — rename only works within one file system.
 */
function workDirFor(target) {
  const cache = path.join(root, 'node_modules', '.cache', 'console-build');
  fs.mkdirSync(cache, { recursive: true });
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  if (fs.statSync(cache).dev === fs.statSync(parent).dev) return path.join(cache, crypto.createHash('sha1').update(target).digest('hex').slice(0, 12));
  return path.join(parent, `.${path.basename(target)}-build`);
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM'; // exists, owned by someone else
  }
}

/** Removes what killed builds left behind (their temporary folders name their process). */
function sweep(work) {
  for (const name of fs.readdirSync(work)) {
    const m = /^(?:new|old)-(\d+)-/.exec(name);
    if (m && !alive(Number(m[1]))) fs.rmSync(path.join(work, name), { recursive: true, force: true });
  }
}

const LOCK_WAIT_MS = 15 * 60 * 1000;

/** Holds the build lock of `work` while fn runs; waits while another live process holds it. */
async function withLock(work, fn) {
  const lock = path.join(work, 'build.lock');
  const started = Date.now();
  let told = false;
  for (;;) {
    try {
      fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, since: Date.now() }), { flag: 'wx' });
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    let owner = null;
    try {
      owner = JSON.parse(fs.readFileSync(lock, 'utf8'));
    } catch {
      // being written this instant, or gone: look again
    }
    // Left by a build that was killed: take it over. (Each build writes into its own folder, so even two builders that
    // both took over at once would only do the work twice, never mix their files.)
    if (owner && !alive(owner.pid)) {
      fs.rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() - started > LOCK_WAIT_MS) throw new BuildError(`等待其他构建完成超时（锁文件 ${lock}）。如果没有其他构建在运行，请删除该文件后重试。`);
    if (!told) {
      console.log('另一个进程正在构建控制台，等待它完成…');
      told = true;
    }
    await sleep(500);
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

export class BuildError extends Error {}

function runVite(outDir, env) {
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  if (!fs.existsSync(vite)) {
    return Promise.reject(new BuildError('找不到构建工具 vite：构建需要开发依赖，请在构建的机器上运行 npm install（或 npm ci，不带 --omit=dev）后重试。'));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      if (code === 0) resolve();
      else reject(new BuildError(signal ? `构建被中止（${signal}）` : `构建失败（vite 退出码 ${code}），请查看上面的错误信息`));
    });
  });
}

/**
 * Builds the console into `target` (default STATIC_DIR or dist/). With ifStale, only when it is missing or stale.
 * Answers whether a build was made.
 */
export async function buildConsole({ target = staticDirOf(), ifStale = false, env = process.env } = {}) {
  const work = workDirFor(target);
  fs.mkdirSync(work, { recursive: true });
  return withLock(work, async () => {
    sweep(work);
    if (ifStale && buildState(target).state === 'fresh') return false;
    const id = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
    const next = path.join(work, `new-${id}`);
    const startedAt = new Date();
    try {
      // The precompression reuses the compressed copies of unchanged files from the build being replaced.
      await runVite(next, { ...env, STATIC_DIR: target });
      const index = path.join(next, 'index.html');
      if (!fs.existsSync(index)) throw new BuildError('构建没有生成 index.html，未替换现有构建');
      fs.utimesSync(index, startedAt, startedAt); // see buildState: the build is as old as the sources it read
      swapIn(next, target, path.join(work, `old-${id}`));
    } finally {
      fs.rmSync(next, { recursive: true, force: true });
    }
    return true;
  });
}

/**
 * Puts the finished build in place: the current one is renamed away, the new one renamed in, the old one deleted.
 * A server listing or reading the folder finds the old build or the new one, never a mix; between the two renames
 * (microseconds) the folder is absent (server/static.ts keeps its last index.html). Node has no atomic exchange of
 * two directories (renameat2 RENAME_EXCHANGE), so two renames it is. Running servers serve the new build without a
 * restart (server/static.ts looks up files it did not list at start).
 */
function swapIn(next, target, old) {
  const hadBuild = fs.existsSync(target);
  if (hadBuild) fs.renameSync(target, old);
  try {
    fs.renameSync(next, target);
  } catch (err) {
    if (hadBuild) fs.renameSync(old, target); // put the previous build back rather than leave none
    throw err;
  }
  if (hadBuild) fs.rmSync(old, { recursive: true, force: true });
}

async function main(argv) {
  const ifStale = argv.includes('--if-stale');
  const unknown = argv.filter((a) => a !== '--if-stale');
  if (unknown.length > 0) {
    console.error(`不认识的选项：${unknown.join(' ')}（可用：--if-stale，只在构建缺失或过期时构建）`);
    return 2;
  }
  const target = staticDirOf();
  const t0 = performance.now();
  try {
    console.log(`正在构建控制台 → ${shownPath(target)} …`);
    const built = await buildConsole({ target, ifStale });
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(built ? `控制台构建完成（${seconds} 秒）：${target}` : `控制台构建已是最新，无需重新构建：${target}`);
    return 0;
  } catch (err) {
    console.error(err instanceof BuildError ? err.message : `构建失败：${err.message}`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) process.exitCode = await main(process.argv.slice(2));

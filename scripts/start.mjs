#!/usr/bin/env node
// `npm start`: starts the server on one port (PORT, default 8080) serving the API and the console.
//  - production (NODE_ENV=production) never builds: a missing or stale console build is refused with what to run
//    (building needs the dev dependencies and takes a while; the operator builds before deploying, docs/production.md);
//  - development builds the console first when it is missing or older than its sources (scripts/build.mjs: into a
//    temporary folder, swapped in by rename, one build at a time), then seeds demo data on first start.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { BuildError, buildConsole, buildState, root, shownPath, staticDirOf } from './build.mjs';

const production = process.env.NODE_ENV === 'production';
const target = staticDirOf();
const shown = shownPath(target);

if (production) {
  const build = buildState(target);
  if (build.state === 'missing') {
    console.error(`无法启动：找不到控制台构建（${shown}/index.html）。生产模式下 npm start 不会自动构建，请先运行 npm run build，再运行 npm start。`);
    process.exit(1);
  }
  if (build.state === 'stale') {
    console.error(
      `无法启动：控制台构建已过期（${build.newer} 比 ${shown}/index.html 新），直接启动会提供旧版本的控制台。` +
        '生产模式下 npm start 不会自动构建，请先运行 npm run build，再运行 npm start。',
    );
    process.exit(1);
  }
} else if (!process.env.STATIC_DIR || target === path.join(root, 'dist')) {
  try {
    if (buildState(target).state !== 'fresh') console.log('控制台构建缺失或已过期，正在构建（scripts/build.mjs）…');
    await buildConsole({ target, ifStale: true });
  } catch (err) {
    console.error(err instanceof BuildError ? err.message : `构建控制台失败：${err.message}`);
    process.exit(1);
  }
}

const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], { cwd: root, stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

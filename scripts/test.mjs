#!/usr/bin/env node
// `npm test`: everything, in order, stopping at the first failure: typecheck, lint, dependency rules
// (.dependency-cruiser.cjs), unit tests, server tests (SQLite, plus PostgreSQL when TEST_DATABASE_URL is set), console
// build, its weight budget (scripts/check-bundle-budget.mjs), browser tests. Ends with a one-line count.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (p) => path.join(root, 'node_modules', p);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-test-'));
let passed = 0;
let failed = 0;

function step(title, args, { report } = {}) {
  const started = Date.now();
  console.log(`\n▶ ${title}`);
  const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (report && fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += r.numPassedTests ?? 0;
    failed += r.numFailedTests ?? 0;
  }
  console.log(`  ${run.status === 0 ? '✔' : '✘'} ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (run.status !== 0) {
    if (!report) failed += 1;
    console.log(`\ntests: ${passed} passed, ${Math.max(failed, 1)} failed`);
    process.exit(run.status ?? 1);
  }
}

const vitest = (project) => {
  const report = path.join(reports, `${project}.json`);
  return [[bin('vitest/vitest.mjs'), 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], { report }];
};

const vitestFiles = (project, name, files) => {
  const report = path.join(reports, `${name}.json`);
  return [
    [bin('vitest/vitest.mjs'), 'run', '--project', project, ...files, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { report },
  ];
};

step('类型检查 typecheck', [bin('typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit']);
step('代码规范 lint', [bin('@biomejs/biome/bin/biome'), 'check', '--error-on-warnings', '.']);
// The same as `npm run deps:check`: no import circles, no console ↔ server imports, modules only through facades.
step('依赖规则 dependency rules', [bin('dependency-cruiser/bin/dependency-cruise.mjs'), '--output-type', 'err', 'server', 'common', 'src']);
step('单元测试 unit', ...vitest('unit'));
step(`服务端测试 server (SQLite${process.env.TEST_DATABASE_URL ? ' + PostgreSQL' : ''})`, ...vitest('server'));
step('构建控制台 build', [path.join(root, 'scripts/build.mjs')]);
step('体积预算 bundle budget', [path.join(root, 'scripts/check-bundle-budget.mjs')]);
// The production path on the build just made: admin:create, NODE_ENV=production npm start (which refuses a stale
// build), sign-in through the encrypted API (tests/server/production.test.ts, PRODUCTION_PATH=1).
process.env.PRODUCTION_PATH = '1';
step('生产模式路径 production path', ...vitestFiles('server', 'production', ['tests/server/production.test.ts', '-t', 'production start on a new database']));
delete process.env.PRODUCTION_PATH;
step('浏览器测试 browser', ...vitest('browser'));
console.log(`\ntests: ${passed} passed, ${failed} failed`);

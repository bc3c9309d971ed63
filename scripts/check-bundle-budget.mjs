#!/usr/bin/env node
// Fails when the built console outgrows its weight budget (issue 15):
//  - the JavaScript the sign-in page (/login) downloads — the entry chunk and everything it imports statically — must
//    stay within LOGIN_JS_BUDGET compressed;
//  - no single chunk may exceed CHUNK_BUDGET compressed (heavy libraries belong in lazily loaded chunks).
// Sizes are gzip -9 (the build's .gz copies; the server prefers the smaller .br, printed alongside for reference).
// Usage: node scripts/check-bundle-budget.mjs [distDir]   (default: dist)
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export const LOGIN_JS_BUDGET = 350 * 1024;
export const CHUNK_BUDGET = 250 * 1024;

const kB = (n) => `${(n / 1024).toFixed(1)} kB`;

/** Compressed sizes of one built file: its precompressed copies when the build wrote them, else computed here. */
function compressedSizes(file) {
  const read = (suffix, make) => (fs.existsSync(file + suffix) ? fs.statSync(file + suffix).size : make(fs.readFileSync(file)).length);
  return {
    gzip: read('.gz', (b) => zlib.gzipSync(b, { level: 9 })),
    brotli: read('.br', (b) => zlib.brotliCompressSync(b)),
  };
}

/** Chunks named by a module's static imports and re-exports (dynamic import() is a later download, not followed). */
function staticImports(source) {
  const found = [];
  for (const m of source.matchAll(/(?:^|[;}\s])(?:import|export)\s*(?:[^'"()]*?from\s*)?["']\.\/([^"']+\.js)["']/g)) found.push(`assets/${m[1]}`);
  return found;
}

/** The JavaScript a visitor of any page downloads before the first render: the entry scripts and their static imports. */
export function entryClosure(dist) {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const queue = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const seen = new Set();
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(fs.readFileSync(path.join(dist, file), 'utf8')));
  }
  return [...seen];
}

function main() {
  const dist = path.resolve(process.argv[2] ?? process.env.STATIC_DIR ?? 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    console.error(`未找到构建产物 ${dist}/index.html，请先运行 npm run build`);
    process.exit(1);
  }
  const problems = [];

  const login = entryClosure(dist).map((file) => ({ file, raw: fs.statSync(path.join(dist, file)).size, ...compressedSizes(path.join(dist, file)) }));
  const total = login.reduce((t, f) => ({ raw: t.raw + f.raw, gzip: t.gzip + f.gzip, brotli: t.brotli + f.brotli }), { raw: 0, gzip: 0, brotli: 0 });
  console.log(
    `登录页 JavaScript：${login.length} 个文件，原始 ${kB(total.raw)}，gzip ${kB(total.gzip)}，brotli ${kB(total.brotli)}（预算 ${kB(LOGIN_JS_BUDGET)}）`,
  );
  if (total.gzip > LOGIN_JS_BUDGET) {
    problems.push(`登录页 JavaScript 压缩后 ${kB(total.gzip)}，超过预算 ${kB(LOGIN_JS_BUDGET)}。最大的文件：`);
    for (const f of [...login].sort((a, b) => b.gzip - a.gzip).slice(0, 8)) problems.push(`  ${f.file} ${kB(f.gzip)}`);
  }

  const assets = path.join(dist, 'assets');
  for (const name of fs.readdirSync(assets).filter((n) => n.endsWith('.js'))) {
    const { gzip } = compressedSizes(path.join(assets, name));
    if (gzip > CHUNK_BUDGET) problems.push(`assets/${name} 压缩后 ${kB(gzip)}，超过单个文件上限 ${kB(CHUNK_BUDGET)}（应按页面懒加载）`);
  }

  if (problems.length > 0) {
    console.error(problems.join('\n'));
    process.exit(1);
  }
  console.log(`所有 JavaScript 文件压缩后均不超过 ${kB(CHUNK_BUDGET)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) main();

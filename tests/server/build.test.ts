import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm run build` (scripts/build.mjs): the build goes into a temporary folder and is renamed into place, one build per
 * folder at a time. Two `npm start`s at once in development both ask `--if-stale`: one builds, the other waits for the
 * lock, finds that build fresh and uses it. Builds into a temporary STATIC_DIR (never the repository's dist/).
 */
const root = path.resolve(import.meta.dirname, '../..');
const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'zy-build-')), 'console');

function build(...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/build.mjs', ...args], {
      cwd: root,
      env: { ...process.env, STATIC_DIR: target },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** Temporary build folders left beside the target or in node_modules/.cache (a finished build leaves none). */
function leftovers(): string[] {
  const places = [path.dirname(target), path.join(root, 'node_modules', '.cache')];
  return places
    .flatMap((dir) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String) : []))
    .filter((f) => /(^|\/)(new|old)-\d+-[0-9a-f]{8}$/.test(f));
}

describe('the console build', () => {
  afterAll(() => fs.rmSync(path.dirname(target), { recursive: true, force: true }));

  it('two builds asked at once: one builds, the other waits and finds it fresh; nothing half-made is left', async () => {
    const [a, b] = await Promise.all([build('--if-stale'), build('--if-stale')]);
    expect(a.code, a.out).toBe(0);
    expect(b.code, b.out).toBe(0);
    const outs = [a.out, b.out];
    expect(outs.filter((o) => o.includes('控制台构建完成'))).toHaveLength(1);
    expect(outs.filter((o) => o.includes('控制台构建已是最新，无需重新构建'))).toHaveLength(1);
    const html = fs.readFileSync(path.join(target, 'index.html'), 'utf8');
    const entry = /src="\/assets\/([^"]+\.js)"/.exec(html)?.[1] as string;
    expect(fs.existsSync(path.join(target, 'assets', entry))).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('a rebuild replaces the folder whole: the page names only chunks that are there', async () => {
    const again = await build();
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain('控制台构建完成');
    const html = fs.readFileSync(path.join(target, 'index.html'), 'utf8');
    for (const [, chunk] of html.matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)) expect(fs.existsSync(path.join(target, 'assets', chunk)), chunk).toBe(true);
    expect(leftovers()).toEqual([]);
  });
});

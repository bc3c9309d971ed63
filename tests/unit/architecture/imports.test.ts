import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** Every module specifier of a file: static and dynamic imports, re-exports. */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  return found;
}

/** Where a specifier lands, relative to the repository root ('' for a package). */
function target(file: string, specifier: string): string {
  if (specifier.startsWith('@/')) return path.join('src', specifier.slice(2));
  if (specifier.startsWith('@common/')) return path.join('common', specifier.slice('@common/'.length));
  if (!specifier.startsWith('.')) return '';
  return path.relative(root, path.resolve(path.dirname(file), specifier));
}

function offending(folder: string, forbidden: string[]): string[] {
  return sourceFiles(path.join(root, folder)).flatMap((file) =>
    specifiers(file)
      .filter((s) => forbidden.some((f) => target(file, s).split(path.sep)[0] === f))
      .map((s) => `${path.relative(root, file)} → ${s}`),
  );
}

describe('source boundaries', () => {
  it('the console (src/) never imports server code; shared code comes from common/', () => {
    expect(offending('src', ['server'])).toEqual([]);
  });

  it('common/ depends on neither side, so both can use it', () => {
    expect(offending('common', ['server', 'src'])).toEqual([]);
  });

  it("the engine (src/engine/) imports neither the app's resources nor the modules: it gets them through its registry context", () => {
    const app = [path.join('src', 'resources'), path.join('src', 'modules')];
    const found = sourceFiles(path.join(root, 'src/engine')).flatMap((file) =>
      specifiers(file)
        .filter((s) => app.some((dir) => target(file, s) === dir || target(file, s).startsWith(dir + path.sep)))
        .map((s) => `${path.relative(root, file)} → ${s}`),
    );
    expect(found).toEqual([]);
  });

  it('catches a console file that reaches into server/', () => {
    const probe = path.join(root, 'src/router/componentRegistry.tsx');
    expect(target(probe, '../../server/db/seed/menus')).toBe(path.join('server', 'db', 'seed', 'menus'));
  });
});

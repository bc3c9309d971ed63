import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkSchemas } from '../../../server/engine/metaSchema';

/**
 * What the server's schema check says about these files alone (name → content, `<module>/<entity>.json` allowed), as
 * "field message"; the files are written to a temporary folder, removed afterwards.
 */
export function schemaProblems(files: Record<string, unknown>): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-schemas-'));
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), JSON.stringify(content));
  }
  try {
    return checkSchemas(dir).problems.map((p) => `${p.field} ${p.message}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

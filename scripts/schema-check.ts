/**
 * npm run schema:check — validates every schemas/*.json (or the folder given as argument / SCHEMAS_DIR) against the
 * meta-schema and the cross-reference rules of docs/schemas.md; prints file + field for each problem.
 */
import path from 'node:path';
import { checkSchemas, DEFAULT_SCHEMAS_DIR, formatProblem } from '../server/engine/metaSchema.js';

const dir = path.resolve(process.argv[2] ?? process.env.SCHEMAS_DIR ?? DEFAULT_SCHEMAS_DIR);
const { schemas, problems } = checkSchemas(dir);
if (problems.length) {
  for (const p of problems) console.error(formatProblem(p));
  console.error(`\nschema 检查失败：${problems.length} 处问题（${path.relative(process.cwd(), dir) || dir}）`);
  process.exit(1);
}
console.log(`schema 检查通过：${schemas.length} 个文件（${schemas.map((s) => path.basename(s.file)).join(', ')}）`);

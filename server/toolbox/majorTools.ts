import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ok } from '../http/envelope.js';
import { majorCatalogue, majorEncyclopaedia } from '../volunteer/index.js';

/**
 * The tool cabinet's 专业库 (issue 27, item 2): the 2025 本科专业目录 browsed by 门类 → 专业类 or searched by name or
 * code, and one major's encyclopaedia view (catalogue facts, the province's lines teaching it with each school's
 * 第四轮学科评估 grade). Reads server/volunteer/majorEncyclopaedia.ts through the volunteer facade; session required,
 * bad input answers a Chinese message, like the other /toolbox/api routes.
 */
export function registerMajorTools(app: FastifyInstance, province: string, requireSession: (request: FastifyRequest) => Promise<void>) {
  const db = app.db.kysely;

  /** The tree with majors per class, and the majors passing the filters, paged. */
  app.get<{ Querystring: { discipline?: string; cls?: string; keyword?: string; pageNum?: number; pageSize?: number } }>(
    '/toolbox/api/major-catalogue',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            discipline: { type: 'string', title: '门类代码', pattern: '^(\\d{2})?$' },
            cls: { type: 'string', title: '专业类代码', pattern: '^(\\d{4})?$' },
            keyword: { type: 'string', title: '专业名称或代码', maxLength: 40 },
            pageNum: { type: 'integer', title: '页码', minimum: 1, default: 1 },
            pageSize: { type: 'integer', title: '每页条数', minimum: 1, maximum: 100, default: 50 },
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      const { pageNum = 1, pageSize = 50, ...filter } = request.query;
      const found = majorCatalogue(filter);
      return ok({ edition: found.edition, tree: found.tree, total: found.rows.length, rows: found.rows.slice((pageNum - 1) * pageSize, pageNum * pageSize) });
    },
  );

  /** One major: facts, lines of the province's newest year, grades. */
  app.get<{ Querystring: { name: string } }>(
    '/toolbox/api/major-encyclopaedia',
    {
      schema: { querystring: { type: 'object', required: ['name'], properties: { name: { type: 'string', title: '专业名称', minLength: 1, maxLength: 60 } } } },
    },
    async (request) => {
      await requireSession(request);
      return ok(await majorEncyclopaedia(db, province, request.query.name.trim()));
    },
  );
}

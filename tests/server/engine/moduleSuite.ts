import { describe, expect, it } from 'vitest';
import { type Entity, moduleEndpointsOf, sameRoute } from '../../../server/engine/index.js';
import type { ApiBody, TestServer } from '../harness.js';
import type { SuiteContext } from './suite.js';

/**
 * The reduced conformance suite of a module-served schema (`x-endpoint.module`, docs/schemas.md): the engine registers
 * no route for it, so what is checked is what the console relies on — every action the schema declares is a route the
 * module registered under exactly that permission, the list answers rows and a total consistent with paging (through
 * `answer` / `paging` when the schema maps them), and a caller without the list permission is refused.
 */

const atPath = (value: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, part) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined), value);

export function defineModuleConformance(context: () => SuiteContext, definition: Entity): void {
  describe(`${definition.id}（${definition.title}，模块接口）`, () => {
    const ep = definition.schema['x-endpoint'];
    const pageName = ep.paging?.page ?? 'pageNum';
    const sizeName = ep.paging?.size ?? 'pageSize';
    const rowsPath = ep.answer?.rows ?? 'rows';
    const totalPath = ep.answer?.total ?? 'total';
    const listUrl = ep.style === 'rest' ? `${ep.base}/${ep.actions?.list ?? 'list'}` : `${ep.base}/${ep.actions.list}`;

    /** The list answer as the console reads it (decrypted when the module encrypts it). */
    async function list(s: TestServer, token: string, page: number, size: number): Promise<{ body: ApiBody; rows: unknown; total: unknown }> {
      const query = { [pageName]: page, [sizeName]: size };
      const res = ep.style === 'rest' ? await s.call('GET', listUrl, { token, query }) : await s.call('POST', listUrl, { token, body: query });
      let body = res.body as ApiBody & Record<string, unknown>;
      if (body.code === 20000) {
        const data = s.decrypt<unknown>(body.data);
        body = data && typeof data === 'object' && 'rows' in data ? { ...body, code: 200, ...(data as object), data: undefined } : { ...body, code: 200, data };
      }
      return { body, rows: atPath(body, rowsPath), total: atPath(body, totalPath) };
    }

    it('the engine registers no route; every declared action is a module route under exactly its x-permissions entry', () => {
      const { s } = context();
      const engineMade = s.app.schemaEngine.entities.get(definition.id);
      expect(engineMade?.moduleServed, 'loaded as module-served').toBe(true);
      for (const r of moduleEndpointsOf(definition)) {
        const found = s.app.routeRegistry.find((x) => x.method === r.method && x.url === r.url) ?? s.app.routeRegistry.find((x) => sameRoute(x, r));
        expect(found, `${r.method} ${r.url}（${r.action}）`).toBeTruthy();
        // save creates and (with the edit permission) updates: the module may guard it with either.
        const allowed = r.op === 'save' ? [definition.permissions.add, definition.permissions.edit] : [r.permission];
        expect(allowed, `${r.method} ${r.url}`).toContain(found?.permission);
      }
    });

    it('list answers rows and a total consistent with paging', async () => {
      const { s, admin } = context();
      const first = await list(s, admin, 1, 1);
      expect(first.body.code, first.body.msg).toBe(200);
      expect(Array.isArray(first.rows), rowsPath).toBe(true);
      const rows = first.rows as Array<Record<string, unknown>>;
      if (first.total === undefined) {
        // No total: an unpaged list (answer.total unresolvable → the console counts the rows); nothing to page.
        expect(ep.answer?.total === undefined || atPath(first.body, ep.answer.total) === undefined).toBe(true);
        return;
      }
      const total = Number(first.total);
      expect(Number.isInteger(total) && total >= rows.length, `${totalPath} = ${String(first.total)}`).toBe(true);
      expect(rows.length).toBe(Math.min(1, total));
      if (rows.length) expect(rows[0], definition.pk.name).toHaveProperty(definition.pk.name);
      const size = Math.min(Math.max(total, 1), 50);
      const all = await list(s, admin, 1, size);
      expect((all.rows as unknown[]).length, `a page of ${size} holds min(${size}, total) rows`).toBe(Math.min(size, total));
      if (total < 2) return; // one row: no second page to compare
      const second = await list(s, admin, 2, 1);
      const next = second.rows as Array<Record<string, unknown>>;
      expect(next.length).toBe(1);
      expect(Number(second.total)).toBe(total);
      expect(next[0][definition.pk.name], 'page 2 differs from page 1').not.toEqual(rows[0][definition.pk.name]);
    });

    it('a caller without the list permission is refused', async () => {
      const { s, nobody } = context();
      const res = await list(s, nobody, 1, 10);
      expect(res.body.code).toBe(403);
      expect(res.rows ?? []).toEqual([]);
    });
  });
}

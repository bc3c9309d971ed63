import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { cached } from '../cache/index.js';
import type { AuthContext } from '../http/context.js';
import { ApiError, Code, fail, ok } from '../http/envelope.js';
import { allows } from '../security/access.js';
import { type EngineEnv, logged } from './context.js';
import { rowToRecord } from './model.js';
import { openApiDocument } from './openapi.js';
import { BusinessType } from './operlog.js';
import { type Row, selectList } from './store.js';

/**
 * RuoYi calls that belong to particular schemas (registered only when that schema is loaded), the account unlock of
 * the login log, the schemas a console build lacks, and the OpenAPI document.
 */
export function registerBuiltins(app: FastifyInstance, env: EngineEnv): void {
  const { entities, k } = env;
  const dictData = entities.get('sys_dict_data');
  const dictType = entities.get('sys_dict_type');
  const config = entities.get('sys_config');
  const logininfor = entities.get('sys_logininfor');

  if (dictData) {
    // useDict: the enabled entries of one type, in dict_sort order.
    // Cached per type (server/cache/); any write under /dev-api/system/dict/ clears the dictionary cache.
    app.get<{ Params: { dictType: string } }>(
      `${dictData.schema['x-endpoint'].base}/type/:dictType`,
      { config: { permission: 'login', write: false } },
      async (request) => {
        const rows = await cached(app, 'dict', request.params.dictType, async () => {
          const res = await sql<Row>`select ${selectList(dictData)} from ${sql.table(dictData.table)} as t
        where t.dict_type = ${request.params.dictType} and t.status = '0' order by t.dict_sort, t.dict_code`.execute(k);
          return res.rows.map((r) => rowToRecord(dictData, r));
        });
        return ok(rows);
      },
    );
  }

  if (dictType) {
    const base = dictType.schema['x-endpoint'].base;
    // The dictionary type select of the dict data page.
    app.get(`${base}/optionselect`, { config: { permission: 'login', write: false } }, async () => {
      const res = await sql<Row>`select ${selectList(dictType)} from ${sql.table(dictType.table)} as t order by t.dict_id`.execute(k);
      return ok(res.rows.map((r) => rowToRecord(dictType, r)));
    });
    // Dictionaries are cached (server/cache/, shared through Redis by several servers); refreshCache's DELETE clears
    // them like every other write under /dev-api/system/dict/ (server/monitor/plugin.ts).
    if (dictType.permissions.remove) {
      app.delete(`${base}/refreshCache`, { config: { permission: dictType.permissions.remove, write: true } }, async () => ok(undefined, '刷新成功'));
    }
  }

  if (config) {
    const base = config.schema['x-endpoint'].base;
    // RuoYi answers the value as msg (and we also as data).
    app.get<{ Params: { configKey: string } }>(`${base}/configKey/:configKey`, { config: { permission: 'login', write: false } }, async (request) => {
      const value = await cached(app, 'config', request.params.configKey, async () => {
        const res = await sql<{
          config_value: string;
        }>`select config_value from ${sql.table(config.table)} where config_key = ${request.params.configKey}`.execute(k);
        return res.rows[0]?.config_value ?? '';
      });
      return { code: Code.OK, msg: value, data: value };
    });
    // 刷新缓存: its DELETE clears the 参数设置 cache (as every write under /dev-api/system/config does).
    if (config.permissions.remove) {
      app.delete(`${base}/refreshCache`, { config: { permission: config.permissions.remove, write: true } }, async () => ok(undefined, '刷新成功'));
    }
  }

  if (logininfor) {
    // Clears a password lock (too many failures) so the account may sign in at once.
    app.get<{ Params: { userName: string } }>(
      `${logininfor.schema['x-endpoint'].base}/unlock/:userName`,
      { config: { permission: 'monitor:logininfor:unlock', write: true } },
      (request) =>
        logged(
          env,
          request,
          { title: '账户解锁', businessType: BusinessType.OTHER, method: 'sys_logininfor.unlock', param: { userName: request.params.userName } },
          async () => {
            const res =
              await sql`update sys_user set pwd_fail_count = 0, lock_until = null where user_name = ${request.params.userName} and del_flag = '0'`.execute(k);
            if (!Number(res.numAffectedRows ?? 0)) throw fail(`用户'${request.params.userName}'不存在`);
            return ok(undefined, '解锁成功');
          },
        ),
    );
  }

  // The schemas a console build did not include (a schema file added since: issue 26), so it can show their generic
  // screens; `known` lists the $ids the console was built with. Only those the user may list; seed rows left out.
  app.get<{ Querystring: { known?: string } }>('/dev-api/engine/schemas', { config: { permission: 'login', write: false } }, async (request) => {
    const known = new Set(String(request.query.known ?? '').split(','));
    const auth = request.auth as AuthContext;
    const schemas = [...entities.values()]
      .filter((e) => !known.has(e.id) && (!e.schema['x-permissions'].list || allows(auth, e.schema['x-permissions'].list)))
      .map(({ schema: { 'x-seed': _seed, ...schema } }) => schema);
    return ok(schemas);
  });

  app.get('/dev-api/tool/swagger/openapi.json', { config: { permission: 'tool:swagger:list', write: false } }, async (request) => {
    if (!request.server.routeRegistry) throw new ApiError(Code.ERROR, '路由表不可用');
    return openApiDocument([...entities.values()], request.server.routeRegistry);
  });
}

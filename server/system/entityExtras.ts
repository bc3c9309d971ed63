import type { FastifyInstance } from 'fastify';
import type { BusinessTypeCode } from '../engine/operlog.js';

/**
 * What the 系统管理 calls beyond a schema entity's generic CRUD (角色管理, 用户管理) start from: the engine's entity
 * and environment, the base path of its schema, the list / query / edit permissions the schema names (RuoYi's
 * `<prefix>:list` … otherwise), and the operation-log entry of a call, method `<entity>.<action>`, with `secretKeys`
 * masked in the logged parameters. Undefined when the engine does not serve the entity.
 */
export function entityExtras(app: FastifyInstance, id: string, permissionPrefix: string, secretKeys?: string[]) {
  const entity = app.schemaEngine?.entities.get(id);
  if (!entity) return undefined;
  const perms = {
    list: entity.permissions.list ?? `${permissionPrefix}:list`,
    query: entity.permissions.query ?? `${permissionPrefix}:query`,
    edit: entity.permissions.edit ?? `${permissionPrefix}:edit`,
  };
  const entry = (action: string, businessType: BusinessTypeCode, param: unknown) => ({
    title: entity.title,
    businessType,
    method: `${id}.${action}`,
    param,
    ...(secretKeys && { secretKeys }),
  });
  return { entity, env: app.schemaEngine.env, base: entity.schema['x-endpoint'].base, perms, entry };
}

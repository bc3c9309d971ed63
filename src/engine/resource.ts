import type { EngineAction, EntitySchema, PropertySchema } from '@common/engine/types';
import type { ResourceProps } from '@refinedev/core';
import { withDeclaredActions } from './declaredActions';

/**
 * One schema file made into what the console needs: the Refine resource, its endpoints and permissions, and the
 * per-resource overrides of src/resources/ (plus the buttons the schema declares, declaredActions.tsx). No http.
 */

// The types of a resource and of its overrides live in resourceTypes.ts, which declaredActions.tsx can import without
// importing this file (that imports declaredActions.tsx): no import circle. Re-exported so callers keep one address.
export type {
  ActionContext,
  EnginePageProps,
  EngineRecordPageProps,
  PageLoader,
  ResourceDef,
  ResourceOverride,
  RowAction,
  SearchFieldOverride,
  SearchInputProps,
  ToolbarAction,
} from './resourceTypes';

import type { ResourceDef, ResourceOverride } from './resourceTypes';

/** 'system:config:list' + 'system:config:add' … → 'system:config'. */
export function permissionPrefix(permissions: Partial<Record<EngineAction, string>>): string | undefined {
  const values = Object.values(permissions).filter((p): p is string => typeof p === 'string' && p.length > 0);
  if (values.length === 0) return undefined;
  const parts = values.map((p) => p.split(':').slice(0, -1));
  const first = parts[0];
  let n = first.length;
  for (const p of parts) {
    let i = 0;
    while (i < n && i < p.length && p[i] === first[i]) i++;
    n = i;
  }
  return n > 0 ? first.slice(0, n).join(':') : undefined;
}

/** 'system/config/index', '/system/config/index.vue' → 'system/config/index'. */
export function normaliseComponent(component: string): string {
  return component.replace(/^\//, '').replace(/\.(vue|tsx)$/, '');
}

/**
 * What one record of a schema is called in 新增… / 修改… / …详情 and the confirmations: `x-item-title`, else the
 * menu title without a trailing 管理 or 列表 (资讯管理 → 资讯: "新增资讯", never "新增资讯管理").
 */
export function itemTitleOf(schema: Pick<EntitySchema, 'title' | 'x-item-title'>): string {
  return schema['x-item-title'] ?? (schema.title.replace(/(管理|列表)$/, '') || schema.title);
}

export function buildResourceDef(schema: EntitySchema, given: ResourceOverride = {}): ResourceDef {
  const override = withDeclaredActions(schema, given);
  const menu = schema['x-menu'];
  const permissions = schema['x-permissions'] ?? {};
  return {
    name: schema.$id,
    title: schema.title,
    itemTitle: itemTitleOf(schema),
    schema,
    primaryKey: schema['x-primaryKey'],
    permissions,
    permissionPrefix: permissionPrefix(permissions),
    listPath: menu ? `/${[menu.parent, menu.path].filter(Boolean).join('/')}`.replace(/\/+/g, '/') : undefined,
    component: menu?.component ? normaliseComponent(menu.component) : undefined,
    components: [menu?.component, ...(override.components ?? [])].filter((c): c is string => Boolean(c)).map(normaliseComponent),
    versioned: schema['x-version'] !== false,
    override,
  };
}

/** The Refine resource of a schema: name = $id, meta {label, permission prefix, schema}. */
export function toRefineResource(def: ResourceDef): ResourceProps {
  return {
    name: def.name,
    list: def.listPath,
    meta: {
      label: def.title,
      permission: def.permissionPrefix,
      schema: def.schema,
      canDelete: Boolean(def.permissions.remove),
      ...def.override.meta,
    },
  };
}

/** Properties in declaration order, as [name, schema] pairs. */
export function propertiesOf(schema: EntitySchema): Array<[string, PropertySchema]> {
  return Object.entries(schema.properties);
}

/** The non-null JSON type of a property (["string","null"] → "string"). */
export function baseType(p: PropertySchema): string | undefined {
  if (Array.isArray(p.type)) return p.type.find((t) => t !== 'null');
  return p.type;
}

import type { BaseKey, BaseRecord, ResourceProps } from '@refinedev/core';
import type { ComponentType, ReactNode } from 'react';
import { withDeclaredActions } from './declaredActions';
import type { EngineAction, EntitySchema, PropertySchema } from './types';

/**
 * One schema file made into what the console needs: the Refine resource, its endpoints and permissions, and the
 * per-resource overrides of resources.config.ts (plus the buttons the schema declares, declaredActions.tsx). No http.
 */

/** What an action button is handed: the resource, the current selection and search values, and a list refresh. */
export interface ActionContext {
  resource: ResourceDef;
  selectedRowKeys: BaseKey[];
  selectedRows: BaseRecord[];
  /** The applied search values (as sent to the list call). */
  query: Record<string, unknown>;
  refresh: () => void;
}

/** An extra per-row button (after 修改 / 删除). */
export interface RowAction {
  key: string;
  label: string;
  /** Full permission string (e.g. 'system:user:resetPwd'); without one the button shows for everyone. */
  permission?: string;
  danger?: boolean;
  icon?: ReactNode;
  /** Show the button only for some rows. */
  visible?: (record: BaseRecord) => boolean;
  onClick: (record: BaseRecord, ctx: ActionContext) => void | Promise<void>;
}

/** An extra toolbar button (after 新增 / 修改 / 删除 / 导入 / 导出). */
export interface ToolbarAction {
  key: string;
  label: string;
  permission?: string;
  type?: 'primary' | 'default' | 'dashed';
  danger?: boolean;
  icon?: ReactNode;
  /** 'single': enabled with exactly one selected row; 'multiple': with one or more; default: always. */
  selection?: 'single' | 'multiple';
  onClick: (ctx: ActionContext) => void | Promise<void>;
}

/** Props of every engine page (generic or a replacement). */
export interface EnginePageProps {
  resource: ResourceDef;
}

/** Props of a create / edit / show replacement: rendered in the dialog (dialog mode) or in place of the list (page mode). */
export interface EngineRecordPageProps extends EnginePageProps {
  /** The record key for edit / show; undefined for create. */
  id?: BaseKey;
  /** Close the dialog or page; `saved` refreshes the list. */
  onClose: (saved: boolean) => void;
}

export type PageLoader<P> = () => Promise<{ default: ComponentType<P> }>;

/**
 * The override API of resources.config.ts (documented there and in docs/schemas.md "Console side").
 * Everything is optional; a resource without an entry gets the generic pages.
 */
export interface ResourceOverride {
  /** Replace one page: a lazily loaded module whose default export takes EnginePageProps / EngineRecordPageProps. */
  pages?: {
    list?: PageLoader<EnginePageProps>;
    create?: PageLoader<EngineRecordPageProps>;
    edit?: PageLoader<EngineRecordPageProps>;
    show?: PageLoader<EngineRecordPageProps>;
  };
  /** Extra per-row buttons. */
  rowActions?: RowAction[];
  /** Extra toolbar buttons. */
  toolbar?: ToolbarAction[];
  /** Replace how one column's cells render (property name → render function). */
  cells?: Record<string, (value: unknown, record: BaseRecord) => ReactNode>;
  /** Extra ui:options of form fields (property name → options), e.g. { listClass: { choices: [{ label, value }] } }. */
  fields?: Record<string, Record<string, unknown>>;
  /** Server menu component strings that also open this resource (hidden routes such as 'system/dict/data'). */
  components?: string[];
  /** Called after every successful write from the generic pages (save, delete, switch, import, clean). */
  afterWrite?: (ctx: ActionContext) => void;
  /** Merged into the Refine resource meta. */
  meta?: Record<string, unknown>;
}

export interface ResourceDef {
  /** Resource name = schema $id. */
  name: string;
  title: string;
  schema: EntitySchema;
  primaryKey: string;
  /** Permission string per action (absent = action not offered). */
  permissions: Partial<Record<EngineAction, string>>;
  /** The common prefix of the permission strings ('system:config'), for Refine's access control. */
  permissionPrefix?: string;
  /** The menu route of the list page ('/system/config') and the server menu component string. */
  listPath?: string;
  component?: string;
  /** Every component string that opens this resource (x-menu.component and override aliases). */
  components: string[];
  /** Version column on (default) — updates send `version`. */
  versioned: boolean;
  override: ResourceOverride;
}

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

export function buildResourceDef(schema: EntitySchema, given: ResourceOverride = {}): ResourceDef {
  const override = withDeclaredActions(schema, given);
  const menu = schema['x-menu'];
  const permissions = schema['x-permissions'] ?? {};
  return {
    name: schema.$id,
    title: schema.title,
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

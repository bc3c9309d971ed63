/**
 * Shapes of a schema file (docs/schemas.md): JSON Schema 2020-12 for one record plus the `x-` extensions. The
 * meta-schema (metaSchema.ts) checks every file against these shapes before anything else reads it.
 */

export type ListRender = 'text' | 'dict' | 'image' | 'date' | 'datetime' | 'money' | 'switch' | 'link' | 'ellipsis';
export type SearchOp = 'eq' | 'like' | 'range' | 'dateRange' | 'subtree';
export type AuditKind = 'createTime' | 'updateTime' | 'createBy' | 'updateBy';

/** Actions a schema may offer; an action is offered when x-permissions names a permission for it. */
export const ACTIONS = ['list', 'query', 'add', 'edit', 'remove', 'export', 'import', 'clean'] as const;
export type EngineAction = (typeof ACTIONS)[number];

export interface PropertySchema {
  type: string | string[];
  title: string;
  description?: string;
  readOnly?: boolean;
  writeOnly?: boolean;
  enum?: unknown[];
  default?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  pattern?: string;
  items?: { type: string; enum?: unknown[]; maxLength?: number };
  minItems?: number;
  maxItems?: number;
  examples?: unknown[];
  'x-list'?: { order?: number; width?: number; fixed?: 'left' | 'right'; render?: ListRender };
  'x-search'?: { op: SearchOp };
  'x-sortable'?: boolean;
  'x-dict'?: string;
  'x-relation'?: { schema: string; label: string; key?: string; as?: string };
  'x-ui'?: { widget?: string; hidden?: boolean; [option: string]: unknown };
  'x-unique'?: boolean;
  'x-audit'?: AuditKind;
}

export interface RestEndpoint {
  style: 'rest';
  base: string;
}

export interface AppEndpoint {
  style: 'app';
  base: string;
  actions: Partial<Record<AppAction, string>>;
}

export const APP_ACTIONS = ['list', 'info', 'save', 'remove', 'change', 'export', 'importTemplate', 'importData', 'clean'] as const;
export type AppAction = (typeof APP_ACTIONS)[number];

export interface ReferencedBy {
  table: string;
  column: string;
  /** Extra SQL condition on the referencing table (e.g. "del_flag = '0'"); a trusted literal from the schema file. */
  where?: string;
  message: string;
}

export interface EntitySchema {
  $schema?: string;
  $id: string;
  title: string;
  description?: string;
  type: 'object';
  'x-table': string;
  'x-primaryKey': string;
  'x-endpoint': RestEndpoint | AppEndpoint;
  'x-permissions': Partial<Record<EngineAction, string>>;
  'x-menu'?: { parent: string; path: string; component: string; title?: string; icon?: string; order?: number };
  'x-form'?: { mode?: 'dialog' | 'page'; width?: number; columns?: 1 | 2 };
  'x-sort'?: { default: string; order: 'asc' | 'desc' };
  /** childrenMessage / selfParentMessage replace the generic refusals ('{label}' = the record's label). */
  'x-tree'?: { parent: string; label: string; ancestors?: string; childrenMessage?: string; selfParentMessage?: string };
  'x-sensitive'?: boolean;
  'x-version'?: boolean;
  'x-softDelete'?: { column: string; deleted: string; active: string };
  'x-referencedBy'?: ReferencedBy[];
  'x-seed'?: Array<Record<string, unknown>>;
  required?: string[];
  properties: Record<string, PropertySchema>;
}

/** A schema file after loading: the parsed schema and where it came from. */
export interface LoadedSchema {
  file: string;
  schema: EntitySchema;
}

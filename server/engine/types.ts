/**
 * Shapes of a schema file (docs/schemas.md): JSON Schema 2020-12 for one record plus the `x-` extensions. The
 * meta-schema (metaSchema.ts) checks every file against these shapes before anything else reads it.
 */

export type ListRender = 'text' | 'dict' | 'image' | 'date' | 'datetime' | 'money' | 'switch' | 'link' | 'ellipsis' | 'video' | 'color';
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

export const APP_ACTIONS = ['list', 'info', 'save', 'remove', 'change', 'export', 'importTemplate', 'importData', 'clean', 'reorder'] as const;
export type AppAction = (typeof APP_ACTIONS)[number];

export interface ReferencedBy {
  table: string;
  column: string;
  /** Extra SQL condition on the referencing table (e.g. "del_flag = '0'"); a trusted literal from the schema file. */
  where?: string;
  message: string;
}

/**
 * Publishing (docs/schemas.md x-publish): which property says a row is on the public side, its published value, and
 * an optional schedule (epoch-ms properties): a row is public when published and now is within [start, end].
 */
export interface PublishSpec {
  status: string;
  published: string | number | boolean;
  start?: string;
  end?: string;
}

/** The /appv2 public read API of an entity (x-public): GET /appv2/api/public/<name>/list and /<name>/<id>. */
export interface PublicSpec {
  name: string;
  /** Properties answered (default: every non-writeOnly property). */
  fields?: string[];
  /** At most this many rows per list answer (default 50). */
  limit?: number;
}

/** A button declared in the schema (x-rowActions / x-toolbar): opens a URL, or shows its QR code. `{prop}` is filled from the row. */
export interface DeclaredAction {
  key: string;
  label: string;
  /** 'open': a new tab at `url`; 'qrcode': a dialog with the QR code of `url` (absolute, for sharing). */
  kind: 'open' | 'qrcode' | 'preview';
  url: string;
  permission?: string;
}

/** Child rows shown on the show page (x-children): rows of `schema` whose `foreignKey` is this row's primary key. */
export interface ChildSpec {
  schema: string;
  foreignKey: string;
  title?: string;
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
  'x-publish'?: PublishSpec;
  'x-public'?: PublicSpec;
  /** One record only (关于我们, 网站设置): the console shows its form instead of a list. */
  'x-singleton'?: boolean;
  /** An integer property rows are ordered by and the list reorders by drag (PUT {base}/reorder). */
  'x-dragSort'?: string;
  'x-rowActions'?: DeclaredAction[];
  'x-toolbar'?: DeclaredAction[];
  'x-children'?: ChildSpec[];
  required?: string[];
  properties: Record<string, PropertySchema>;
}

/** A schema file after loading: the parsed schema and where it came from. */
export interface LoadedSchema {
  file: string;
  schema: EntitySchema;
}

/**
 * Shapes of a schema file (docs/schemas.md): JSON Schema 2020-12 for one record plus the `x-` extensions. The server's
 * meta-schema (server/engine/metaSchema.ts) checks every file against these shapes before anything reads it, so the
 * console may rely on what is required here; both sides type schemas/*.json with these one declarations.
 */

/** The value lists of the x- extensions: the meta-schema enumerates them, the types below derive from them. */
export const LIST_RENDERS = ['text', 'dict', 'image', 'date', 'datetime', 'money', 'switch', 'link', 'ellipsis', 'video', 'color'] as const;
export const SEARCH_OPS = ['eq', 'like', 'range', 'dateRange', 'subtree'] as const;
export const AUDIT_KINDS = ['createTime', 'updateTime', 'createBy', 'updateBy'] as const;
export const UI_WIDGETS = [
  'text',
  'textarea',
  'number',
  'switch',
  'radio',
  'select',
  'dictSelect',
  'treeSelect',
  'date',
  'datetime',
  'dateRange',
  'imageUpload',
  'videoUpload',
  'fileUpload',
  'richText',
  'color',
  'password',
  'iconSelect',
] as const;

export type ListRender = (typeof LIST_RENDERS)[number];
export type SearchOp = (typeof SEARCH_OPS)[number];
export type AuditKind = (typeof AUDIT_KINDS)[number];
export type UiWidget = (typeof UI_WIDGETS)[number];

/** Actions a schema may offer; an action is offered when x-permissions names a permission for it. */
export const ACTIONS = ['list', 'query', 'add', 'edit', 'remove', 'export', 'import', 'clean'] as const;
export type EngineAction = (typeof ACTIONS)[number];

/** The operations an `app`-style endpoint may rename (x-endpoint.actions). */
export const APP_ACTIONS = ['list', 'info', 'save', 'remove', 'change', 'export', 'importTemplate', 'importData', 'clean', 'reorder'] as const;
export type AppAction = (typeof APP_ACTIONS)[number];

/**
 * The JSON Schema keywords of a property that both sides hand to a validator (AJV on the server, RJSF's in the
 * console form); the x- extensions stay out. Each side adds what it treats apart (default, items, description).
 */
export const VALIDATION_KEYWORDS = [
  'type',
  'title',
  'enum',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'pattern',
  'minItems',
  'maxItems',
] as const;

/** The optimistic-lock column the server adds to every entity unless `x-version` is false. */
export const VERSION_FIELD = 'version';

export interface XList {
  order?: number;
  width?: number;
  fixed?: 'left' | 'right';
  render?: ListRender;
}

export interface XUi {
  widget?: UiWidget;
  hidden?: boolean;
  placeholder?: string;
  /** Grid span (of 24) in a two-column form; wide widgets (textarea, richText, uploads) default to the full row. */
  span?: number;
  /** Further options are passed to the widget as they are. */
  [option: string]: unknown;
}

/** The element of an array property (multi-select values). */
export interface PropertyItems {
  type: 'string' | 'integer' | 'number';
  enum?: unknown[];
  maxLength?: number;
}

export interface PropertySchema {
  type: string | string[];
  title: string;
  description?: string;
  $comment?: string;
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
  items?: PropertyItems;
  minItems?: number;
  maxItems?: number;
  examples?: unknown[];
  'x-list'?: XList;
  'x-search'?: { op: SearchOp };
  'x-sortable'?: boolean;
  'x-dict'?: string;
  /** A reference to another entity: `key` (default its primary key) is stored, rows carry the label as `as` (default `label`). */
  'x-relation'?: { schema: string; label: string; key?: string; as?: string };
  'x-ui'?: XUi;
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
  /** 'open': a new tab at `url`; 'qrcode': a dialog with the QR code of `url` (absolute, for sharing); 'preview': opens it with a draft-preview token. */
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
  $comment?: string;
  title: string;
  description?: string;
  type: 'object';
  'x-table': string;
  'x-primaryKey': string;
  'x-endpoint': RestEndpoint | AppEndpoint;
  'x-permissions': Partial<Record<EngineAction, string>>;
  'x-menu'?: { parent: string; path: string; component: string; title?: string; icon?: string; order?: number };
  /** What one record is called (新增…, 修改…, …详情) when the title without 管理 / 列表 does not say it. */
  'x-item-title'?: string;
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
  /**
   * A readOnly integer property holding the user id of the row's owner (备忘录): the server sets it to the signed-in
   * user on create / import and lists, reads, updates and deletes only that user's rows (docs/schemas.md).
   */
  'x-owner'?: string;
  /** An integer property rows are ordered by and the list reorders by drag (PUT {base}/reorder, app: actions.reorder). */
  'x-dragSort'?: string;
  'x-rowActions'?: DeclaredAction[];
  'x-toolbar'?: DeclaredAction[];
  'x-children'?: ChildSpec[];
  required?: string[];
  properties: Record<string, PropertySchema>;
}

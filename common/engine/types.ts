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
  /** Only holders of this permission see the column. */
  permission?: string;
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
  /** `title`: the search field's label when it is not the column's; `permission`: only its holders see the field. */
  'x-search'?: { op: SearchOp; title?: string; permission?: string };
  'x-sortable'?: boolean;
  'x-dict'?: string;
  /** A reference to another entity: `key` (default its primary key) is stored, rows carry the label as `as` (default `label`). */
  'x-relation'?: { schema: string; label: string; key?: string; as?: string };
  'x-ui'?: XUi;
  'x-unique'?: boolean;
  'x-audit'?: AuditKind;
  /** The label of each enum value (search select, list cell, form select; export too): { "0": "待审核" }. */
  'x-enumLabels'?: Record<string, string>;
  /** An antd Tag colour per enum value for the list cell: { "0": "processing", "2": "error" }. */
  'x-enumColors'?: Record<string, string>;
}

/**
 * A module-served resource (`module: true`): the module registers the routes, the engine registers none and creates no
 * table; the console calls them like engine routes. `answer` maps another answer shape (dot paths, default `rows` /
 * `total`), `paging` the request's paging names (default `pageNum` / `pageSize`).
 */
export interface ModuleEndpoint {
  module?: boolean;
  answer?: { rows?: string; total?: string };
  paging?: { page?: string; size?: string };
}

export interface RestEndpoint extends ModuleEndpoint {
  style: 'rest';
  base: string;
  /** Module-served only: the list / export path under base when it is not `list` / `export` (GET {base}/{actions.list}). */
  actions?: Partial<Record<'list' | 'export', string>>;
}

export interface AppEndpoint extends ModuleEndpoint {
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

/** The text dialog of a `call` action: what the user types is sent as `field` of the body. */
export interface CallComment {
  field: string;
  /** The dialog's title ({prop} filled from the row). */
  title: string;
  required?: boolean;
  maxLength?: number;
  /** The text box's placeholder (default 请输入<title>). */
  placeholder?: string;
  /** The OK button (default the action's label). */
  okText?: string;
}

/** A button declared in the schema (x-rowActions / x-toolbar): opens a URL, or shows its QR code. `{prop}` is filled from the row. */
export interface DeclaredAction {
  key: string;
  label: string;
  /**
   * 'open': a new tab at `url`; 'qrcode': a dialog with the QR code of `url` (absolute, for sharing); 'preview': opens it
   * with a draft-preview token; 'call': calls the module route `url` with `method` and `body` (workflow steps).
   */
  kind: 'open' | 'qrcode' | 'preview' | 'call';
  url: string;
  permission?: string;
  /** call: the http method (default POST). */
  method?: 'POST' | 'PUT' | 'DELETE';
  /** call: the body; a string value "{prop}" is the row's value (`{ids}`: the selected keys of a toolbar button), others literal. */
  body?: Record<string, unknown>;
  /** call (row): shown only when each named property of the row holds one of the listed values. */
  when?: Record<string, Array<string | number | boolean>>;
  /** call: a confirm dialog with this text first ({prop} filled from the row). */
  confirm?: string;
  /** call: a text dialog first; its text goes into the body as `field`. */
  comment?: CallComment;
  danger?: boolean;
  /** call (toolbar): enabled with exactly one ('single') or at least one ('multiple') selected row; `{ids}` = their keys. */
  selection?: 'single' | 'multiple';
}

/** One figure of x-header: the value at the dot path `key` of the answer, shown as an antd Statistic. */
export interface HeaderFigure {
  key: string;
  /** The card's title; `{data.storeName}` names a value of the answer. */
  title: string;
  /** 'money': fen shown as ¥ yuan with 2 decimals; 'count': a whole number; 'text' (default): as it is. */
  render?: 'money' | 'text' | 'count';
  /** Small grey text under the value (用于发卡、账户续费). */
  tip?: string;
}

/**
 * Figures above a list (wallet balances, renewal expiry), loaded and refreshed with the list: read from a route of
 * their own (`url`) or (`from: "list"`) from the list's own answer for the current page. Exactly one of the two.
 */
export interface HeaderSpec {
  url?: string;
  from?: 'list';
  /** Only with `url`. */
  method?: 'GET' | 'POST';
  /** Only with `url`: applied search values (by property) sent along (GET query / POST body), e.g. the 门店 picked in the search. */
  params?: string[];
  figures: HeaderFigure[];
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
  /** The table; optional (documentation only) for a module-served resource (`x-endpoint.module`). */
  'x-table'?: string;
  'x-primaryKey': string;
  'x-endpoint': RestEndpoint | AppEndpoint;
  'x-permissions': Partial<Record<EngineAction, string>>;
  /** `perms`: the page's permission when it is not x-permissions.list (the list permission then gets a 列表 button). */
  'x-menu'?: { parent: string; path: string; component: string; title?: string; icon?: string; order?: number; perms?: string };
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
  /** Preset filter: property → value, sent with every list / export call and applied by the engine's own routes. */
  'x-filter'?: Record<string, string | number | boolean>;
  /** Figures above the list (antd Statistic cards). */
  'x-header'?: HeaderSpec;
  /** Extra row actions (x-rowActions and overrides) stay in the row instead of folding into 更多 when more than one shows. */
  'x-rowActionsInline'?: boolean;
  /** The built-in 修改 / 删除 of a row only when its values match (same shape as a call action's `when`). */
  'x-rowWhen'?: { edit?: Record<string, Array<string | number | boolean>>; remove?: Record<string, Array<string | number | boolean>> };
  required?: string[];
  properties: Record<string, PropertySchema>;
}

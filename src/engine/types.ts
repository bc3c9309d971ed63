/**
 * Shapes of a schema file (docs/schemas.md): JSON Schema 2020-12 for one record plus the `x-` extensions the engine
 * reads. Only what the console uses is typed; the server's meta-schema (server/engine/metaSchema.ts) is the full check.
 */

export type ListRender = 'text' | 'dict' | 'image' | 'date' | 'datetime' | 'money' | 'switch' | 'link' | 'ellipsis' | 'video' | 'color';
export type SearchOp = 'eq' | 'like' | 'range' | 'dateRange' | 'subtree';
export type EngineAction = 'list' | 'query' | 'add' | 'edit' | 'remove' | 'export' | 'import' | 'clean';
export type UiWidget =
  | 'text'
  | 'textarea'
  | 'number'
  | 'switch'
  | 'radio'
  | 'select'
  | 'dictSelect'
  | 'treeSelect'
  | 'date'
  | 'datetime'
  | 'dateRange'
  | 'imageUpload'
  | 'videoUpload'
  | 'fileUpload'
  | 'richText'
  | 'color'
  | 'password'
  | 'iconSelect';

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
  [option: string]: unknown;
}

export interface PropertySchema {
  type?: string | string[];
  title?: string;
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
  items?: PropertySchema;
  minItems?: number;
  maxItems?: number;
  'x-list'?: XList;
  'x-search'?: { op: SearchOp };
  'x-sortable'?: boolean;
  'x-dict'?: string;
  /** A reference to another entity: `key` (default its primary key) is stored, rows carry the label as `as` (default `label`). */
  'x-relation'?: { schema: string; label: string; key?: string; as?: string };
  'x-ui'?: XUi;
  'x-unique'?: boolean;
  'x-audit'?: 'createTime' | 'updateTime' | 'createBy' | 'updateBy';
  [extension: string]: unknown;
}

export interface RestEndpoint {
  style: 'rest';
  base: string;
}

export interface AppEndpoint {
  style: 'app';
  base: string;
  actions: {
    list?: string;
    info?: string;
    save?: string;
    remove?: string;
    change?: string;
    export?: string;
    importTemplate?: string;
    importData?: string;
    clean?: string;
    reorder?: string;
  };
}

/** A button declared in the schema (x-rowActions / x-toolbar): opens `url` (`{prop}` filled from the row) or shows its QR code. */
export interface DeclaredAction {
  key: string;
  label: string;
  kind: 'open' | 'qrcode' | 'preview';
  url: string;
  permission?: string;
}

export interface EntitySchema {
  $schema?: string;
  $id: string;
  title: string;
  type: 'object';
  'x-table'?: string;
  'x-primaryKey': string;
  'x-endpoint': RestEndpoint | AppEndpoint;
  'x-permissions'?: Partial<Record<EngineAction, string>>;
  'x-menu'?: { parent?: string; path: string; component: string; title?: string; icon?: string; order?: number };
  'x-form'?: { mode?: 'dialog' | 'page'; width?: number; columns?: 1 | 2 };
  'x-sort'?: { default: string; order: 'asc' | 'desc' };
  'x-tree'?: { parent: string; label: string; ancestors?: string };
  'x-sensitive'?: boolean;
  'x-version'?: boolean;
  'x-softDelete'?: { column: string; deleted: string; active: string };
  'x-publish'?: { status: string; published: string | number | boolean; start?: string; end?: string };
  'x-public'?: { name: string; fields?: string[]; limit?: number };
  /** One record only: the screen is its form (SingletonPage), not a list. */
  'x-singleton'?: boolean;
  /** Integer property the list reorders by drag (PUT {base}/reorder, app: actions.reorder). */
  'x-dragSort'?: string;
  'x-rowActions'?: DeclaredAction[];
  'x-toolbar'?: DeclaredAction[];
  /** Child rows on the show page: rows of `schema` whose `foreignKey` is this record's primary key. */
  'x-children'?: Array<{ schema: string; foreignKey: string; title?: string }>;
  required?: string[];
  properties: Record<string, PropertySchema>;
}

/** The optimistic-lock column the server adds to every entity unless `x-version` is false. */
export const VERSION_FIELD = 'version';

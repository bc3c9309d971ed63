/**
 * 代码生成 records on the wire (RuoYi's GenTable / GenTableColumn shape, migration 007): an imported database table
 * and its columns as configured before the schema file is written. server/gen/ stores and checks them; the console's
 * 代码生成 screens (src/modules/tool/gen/) edit them.
 */

export type Flag = '0' | '1';

export const PROPERTY_TYPES = ['string', 'integer', 'number', 'boolean'] as const;
export type PropertyType = (typeof PROPERTY_TYPES)[number];
export const FORM_MODES = ['dialog', 'page'] as const;
export type FormMode = (typeof FORM_MODES)[number];
/** The search ops a generated property may have (the engine's subtree is for trees, not offered here). */
export const GEN_SEARCH_OPS = ['eq', 'like', 'range', 'dateRange'] as const;
export type GenSearchOp = (typeof GEN_SEARCH_OPS)[number];

export interface GenTable {
  tableId: number;
  tableName: string;
  tableComment: string;
  entityName: string;
  menuParent: string | null;
  menuPath: string | null;
  /** Falls back to the table description (表描述) when null. */
  menuTitle: string | null;
  menuIcon: string | null;
  permissionPrefix: string;
  endpointBase: string;
  formMode: FormMode;
  formWidth: number;
  formColumns: number;
  treeParent: string | null;
  treeLabel: string | null;
  remark: string | null;
  createBy: string | null;
  createTime: number;
  updateBy: string | null;
  updateTime: number | null;
  version: number;
}

export interface GenColumn {
  columnId: number;
  tableId: number;
  columnName: string;
  columnComment: string;
  columnType: string;
  propertyName: string;
  propertyType: PropertyType;
  isPk: Flag;
  isNullable: Flag;
  isRequired: Flag;
  isInsert: Flag;
  isEdit: Flag;
  isList: Flag;
  isSearch: Flag;
  searchOp: GenSearchOp;
  isSortable: Flag;
  dictType: string;
  /** An x-ui widget that fits the property type (server/gen/model.ts WIDGETS_BY_TYPE). */
  widget: string;
  maxLength: number | null;
  sort: number;
}

/** A table of the database, as 导入表 lists them. */
export interface DbTable {
  tableName: string;
  tableComment: string;
}

/** The filters of both lists (imported tables, database tables). */
export interface GenQuery {
  pageNum: number;
  pageSize: number;
  tableName?: string;
  tableComment?: string;
}

import type { Flag, GenColumn, PropertyType } from '../../common/gen/tables.js';
import type { DbColumn } from './introspect.js';

/**
 * 代码生成: the defaults an imported table and its columns start with (RuoYi's GenUtils.initTable / initColumnField,
 * adapted to schema files). The records' shapes (migration 007) are in common/gen/tables.ts.
 */

/** Widgets (x-ui.widget) that fit each property type. */
export const WIDGETS_BY_TYPE: Record<string, string[]> = {
  string: ['text', 'textarea', 'select', 'radio', 'dictSelect', 'imageUpload', 'fileUpload', 'richText', 'color', 'password'],
  integer: ['number', 'select', 'radio', 'dictSelect', 'treeSelect', 'date', 'datetime'],
  number: ['number', 'select', 'radio', 'dictSelect'],
  boolean: ['switch', 'radio', 'select'],
};

/** Columns with a fixed role in the engine: the optimistic-lock counter and the soft-delete flag. */
export const VERSION_COLUMN = 'version';
export const SOFT_DELETE_COLUMN = 'del_flag';

export const camel = (snake: string) => snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const flag = (b: boolean): Flag => (b ? '1' : '0');

export function propertyTypeOf(dbType: string): PropertyType {
  const t = dbType.toLowerCase();
  if (t.startsWith('bool')) return 'boolean';
  if (t.includes('int') || t.includes('serial')) return 'integer';
  if (t.includes('real') || t.includes('floa') || t.includes('doub') || t.includes('numeric') || t.includes('decimal')) return 'number';
  return 'string';
}

export const isTimeColumn = (name: string, propertyType: string) => propertyType === 'integer' && /_(time|date|at)$/.test(name);

/** create_time / update_time (integer) and create_by / update_by (text) are filled by the server. */
export function auditKindOf(columnName: string, propertyType: string): 'createTime' | 'updateTime' | 'createBy' | 'updateBy' | null {
  if (columnName === 'create_time' && propertyType === 'integer') return 'createTime';
  if (columnName === 'update_time' && propertyType === 'integer') return 'updateTime';
  if (columnName === 'create_by' && propertyType === 'string') return 'createBy';
  if (columnName === 'update_by' && propertyType === 'string') return 'updateBy';
  return null;
}

/** The engine-managed columns (version, del_flag) that are not properties of the generated schema. */
export function isManagedColumn(c: Pick<GenColumn, 'columnName' | 'propertyType'>): boolean {
  return (c.columnName === VERSION_COLUMN && c.propertyType === 'integer') || (c.columnName === SOFT_DELETE_COLUMN && c.propertyType === 'string');
}

/** Default module / business names of a table: demo_item → demo + item; single words go under system. */
export function defaultNames(tableName: string): { module: string; business: string } {
  const parts = tableName.split('_').filter(Boolean);
  if (parts.length < 2) return { module: 'system', business: camel(tableName) };
  return { module: parts[0], business: camel(parts.slice(1).join('_')) };
}

const letters = (s: string) => s.replace(/[^A-Za-z]/g, '');

export function initTable(tableName: string, tableComment: string) {
  const { module, business } = defaultNames(tableName);
  const title = tableComment.trim() || tableName;
  return {
    tableName,
    tableComment: title,
    entityName: tableName,
    menuParent: module,
    menuPath: business,
    menuTitle: null, // falls back to the table description (表描述)
    menuIcon: null,
    permissionPrefix: `${letters(module) || 'gen'}:${letters(business) || 'gen'}`,
    endpointBase: `/dev-api/${module}/${business}`,
    formMode: 'dialog' as const,
    formWidth: 1200,
    formColumns: 2,
    treeParent: null,
    treeLabel: null,
    remark: null,
  };
}

export function initColumn(c: DbColumn): Omit<GenColumn, 'columnId' | 'tableId'> {
  const propertyType = c.pk ? 'integer' : propertyTypeOf(c.type);
  const name = c.name;
  const audit = auditKindOf(name, propertyType);
  const managed = isManagedColumn({ columnName: name, propertyType });
  const time = isTimeColumn(name, propertyType);
  const writable = !c.pk && !audit && !managed;
  const nameLike = propertyType === 'string' && /(name|title)$/.test(name);
  const searchable = (propertyType === 'string' && /(name|title|code|status|type|mobile|phone)$/.test(name)) || (name === 'create_time' && time);
  let widget = 'text';
  if (propertyType === 'boolean') widget = 'switch';
  else if (time) widget = 'datetime';
  else if (propertyType === 'integer' || propertyType === 'number') widget = 'number';
  else if (/(remark|desc|description|comment|note|notes)$/.test(name)) widget = 'textarea';
  else if (/content$/.test(name)) widget = 'richText';
  else if (/(image|avatar|img|pic|photo|logo)$/.test(name)) widget = 'imageUpload';
  else if (/(file|attachment)$/.test(name)) widget = 'fileUpload';
  else if (/status$/.test(name)) widget = 'radio';
  else if (/(type|sex)$/.test(name)) widget = 'select';
  return {
    columnName: name,
    columnComment: c.comment.trim() || name,
    columnType: c.type,
    propertyName: camel(name),
    propertyType,
    isPk: flag(c.pk),
    isNullable: flag(c.nullable && !c.pk),
    isRequired: flag(writable && !c.nullable && !c.hasDefault),
    isInsert: flag(writable),
    isEdit: flag(writable),
    isList: flag(!managed && !['create_by', 'update_by', 'update_time', 'remark'].includes(name)),
    isSearch: flag(searchable && !managed),
    searchOp: time ? 'dateRange' : nameLike ? 'like' : 'eq',
    isSortable: flag(c.pk || time),
    dictType: '',
    widget,
    maxLength: c.maxLength,
    sort: c.position,
  };
}

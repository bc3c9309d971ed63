import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EntitySchema, ListRender, PropertySchema, SearchOp, UiWidget } from '../../common/engine/types.js';
import { FORM_MODES, type GenColumn, type GenTable } from '../../common/gen/tables.js';
import { checkSchemas } from '../engine/metaSchema.js';
import { fail } from '../http/envelope.js';
import { auditKindOf, isManagedColumn, isTimeColumn, SOFT_DELETE_COLUMN, VERSION_COLUMN, WIDGETS_BY_TYPE } from './model.js';

/**
 * gen_table + gen_table_column → one schema file of the schema engine (docs/schemas.md). The result is checked with
 * the engine's own meta-schema (checkSchemas on a temporary folder) and against the schemas already in the folder
 * (entity name, table, endpoint) before anyone sees it, so what the generator offers always loads.
 */

export interface GeneratedSchema {
  schema: EntitySchema;
  /** Where the file belongs, relative to the repository: schemas/<entity>.json. */
  fileName: string;
  text: string;
}

export const ENTITY_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
export const PERMISSION_PREFIX = /^[A-Za-z]+(:[A-Za-z]+)*$/;
export const ENDPOINT_BASE = /^\/(dev-api|appv2)(\/[A-Za-z0-9_-]+)+$/;
export const MENU_PARENT = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
export const MENU_PATH = /^[A-Za-z0-9_-]+$/;
const PROPERTY_NAME = /^[a-z][A-Za-z0-9]*$/;
const TEXT_WIDGETS = new Set(['textarea', 'richText']);

const on = (f: string | null | undefined) => f === '1';
const blank = (s: string | null | undefined) => !s?.trim();
const titleOf = (c: GenColumn) => c.columnComment.trim() || c.columnName;

/** The columns that become properties (the version counter and the soft-delete flag are the engine's own). */
const propertyColumns = (columns: GenColumn[]) => [...columns].sort((a, b) => a.sort - b.sort).filter((c) => !isManagedColumn(c));

/** Settings a schema cannot be made from, in Chinese, naming the field; empty when all is well. */
export function configProblems(table: GenTable, columns: GenColumn[]): string[] {
  const out: string[] = [];
  if (blank(table.tableComment)) out.push('表描述不能为空');
  if (!ENTITY_NAME.test(table.entityName)) out.push('实体名称格式不正确（字母开头，只含字母、数字和下划线）');
  if (!PERMISSION_PREFIX.test(table.permissionPrefix)) out.push('权限前缀格式不正确（只含字母，用冒号分隔，如 demo:item）');
  if (!ENDPOINT_BASE.test(table.endpointBase)) out.push('接口地址格式不正确（以 /dev-api/ 或 /appv2/ 开头，如 /dev-api/demo/item）');
  if (!blank(table.menuParent) || !blank(table.menuPath)) {
    if (blank(table.menuParent) || !MENU_PARENT.test(table.menuParent ?? '')) out.push('上级菜单路径格式不正确（如 system 或 system/log）');
    if (blank(table.menuPath) || !MENU_PATH.test(table.menuPath ?? '')) out.push('菜单路由地址格式不正确（字母、数字、- 或 _，如 item）');
  }
  if (!(FORM_MODES as readonly string[]).includes(table.formMode)) out.push('表单方式取值不在允许范围内（dialog / page）');

  const props = propertyColumns(columns);
  const pks = props.filter((c) => on(c.isPk));
  if (pks.length !== 1) out.push('需要恰好一个主键字段');
  else if (pks[0].propertyType !== 'integer') out.push(`主键字段'${pks[0].columnName}'必须是整数类型`);

  const names = new Set<string>();
  let dateRanges = 0;
  for (const c of props) {
    const label = `字段'${c.columnName}'`;
    if (blank(c.columnComment)) out.push(`${label}的字段描述不能为空`);
    if (!PROPERTY_NAME.test(c.propertyName)) out.push(`${label}的属性名称格式不正确（小驼峰，字母开头，只含字母和数字）`);
    else if (names.has(c.propertyName)) out.push(`${label}的属性名称'${c.propertyName}'重复`);
    names.add(c.propertyName);
    if (c.propertyName === 'version' && columns.some((x) => x.columnName === VERSION_COLUMN && isManagedColumn(x))) {
      out.push(`${label}的属性名称 version 是保留字（乐观锁）`);
    }
    const type = c.propertyType;
    const allowed = WIDGETS_BY_TYPE[type];
    if (!allowed) {
      out.push(`${label}的属性类型 ${type} 不支持（允许：${Object.keys(WIDGETS_BY_TYPE).join(', ')}）`);
      continue;
    }
    const writable = !on(c.isPk) && !auditKindOf(c.columnName, type) && (on(c.isInsert) || on(c.isEdit));
    if (writable && !allowed.includes(c.widget)) out.push(`${label}的显示类型 ${c.widget} 不适用于 ${type} 类型（可选：${allowed.join(', ')}）`);
    if (writable && c.widget === 'dictSelect' && blank(c.dictType)) out.push(`${label}的显示类型 dictSelect 需要字典类型`);
    if (on(c.isRequired) && !writable) out.push(`${label}设为必填时必须可插入或编辑`);
    if (on(c.isSearch)) {
      const op = c.searchOp;
      if (op === 'like' && type !== 'string') out.push(`${label}的查询方式 like 只适用于字符串`);
      else if (op === 'range' && type !== 'integer' && type !== 'number') out.push(`${label}的查询方式 range 只适用于整数 / 小数`);
      else if (op === 'dateRange' && type !== 'integer') out.push(`${label}的查询方式 dateRange 只适用于整数（毫秒时间戳）`);
      else if (!['eq', 'like', 'range', 'dateRange'].includes(op)) out.push(`${label}的查询方式 ${op} 不支持（允许：eq, like, range, dateRange）`);
      if (op === 'dateRange') dateRanges++;
    }
  }
  if (dateRanges > 1) out.push('最多一个字段使用 dateRange 查询方式');

  const byProp = (p: string | null) => props.find((c) => c.propertyName === p);
  if (!blank(table.treeParent) || !blank(table.treeLabel)) {
    const parent = byProp(table.treeParent);
    const label = byProp(table.treeLabel);
    if (!parent) out.push('树父编码字段不存在（填写属性名称，如 parentId）');
    else if (parent.propertyType !== 'integer') out.push(`树父编码字段'${parent.columnName}'必须是整数类型`);
    else if (on(parent.isPk)) out.push('树父编码字段不能是主键');
    if (!label) out.push('树名称字段不存在（填写属性名称，如 deptName）');
  }
  return out;
}

function listRender(c: GenColumn): ListRender | undefined {
  if (!blank(c.dictType)) return 'dict';
  if (c.widget === 'imageUpload') return 'image';
  if (c.widget === 'date' && c.propertyType === 'integer') return 'date';
  if ((c.widget === 'datetime' || isTimeColumn(c.columnName, c.propertyType)) && c.propertyType === 'integer') return 'datetime';
  if (c.propertyType === 'boolean') return 'switch';
  if (TEXT_WIDGETS.has(c.widget)) return 'ellipsis';
  return undefined;
}

function property(c: GenColumn, listOrder: number | undefined, tree: boolean): PropertySchema {
  const type = c.propertyType;
  const pk = on(c.isPk);
  const audit = auditKindOf(c.columnName, type);
  const readOnly = pk || Boolean(audit) || !(on(c.isInsert) || on(c.isEdit));
  const nullable = on(c.isNullable) && !pk;
  const p: PropertySchema = { type: nullable ? [type, 'null'] : type, title: titleOf(c) };
  if (readOnly) p.readOnly = true;
  if (type === 'string' && !readOnly) {
    if (on(c.isRequired)) p.minLength = 1;
    if (c.maxLength && c.maxLength > 0) p.maxLength = c.maxLength;
  }
  if (type === 'integer' && tree && !readOnly) {
    p.minimum = 0;
    p.default = 0;
  }
  if (!blank(c.dictType)) p['x-dict'] = c.dictType.trim();
  if (listOrder !== undefined) {
    const render = listRender(c);
    p['x-list'] = render ? { order: listOrder, render } : { order: listOrder };
    if (render === 'datetime') p['x-list'].width = 170;
  }
  if (on(c.isSearch)) p['x-search'] = { op: c.searchOp as SearchOp };
  if (on(c.isSortable)) p['x-sortable'] = true;
  if (!readOnly && c.widget && !(c.widget === 'text' && type === 'string') && !(c.widget === 'number' && type !== 'string'))
    p['x-ui'] = { widget: c.widget as UiWidget };
  if (audit) p['x-audit'] = audit;
  return p;
}

/** The schema of one imported table, as configured (not yet checked). */
export function buildSchema(table: GenTable, columns: GenColumn[]): EntitySchema {
  const props = propertyColumns(columns);
  const pk = props.find((c) => on(c.isPk));
  const tree = !blank(table.treeParent) && !blank(table.treeLabel);
  const prefix = table.permissionPrefix;
  const title = table.tableComment.trim() || table.tableName;
  const schema: EntitySchema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: table.entityName,
    title,
    type: 'object',
    'x-table': table.tableName,
    'x-primaryKey': pk?.propertyName ?? '',
    'x-endpoint': { style: 'rest', base: table.endpointBase },
    'x-permissions': {
      list: `${prefix}:list`,
      query: `${prefix}:query`,
      add: `${prefix}:add`,
      edit: `${prefix}:edit`,
      remove: `${prefix}:remove`,
      export: `${prefix}:export`,
      import: `${prefix}:import`,
    },
    properties: {},
  };
  if (!blank(table.remark)) schema.description = (table.remark ?? '').trim();
  if (!blank(table.menuParent) && !blank(table.menuPath)) {
    const parent = (table.menuParent ?? '').trim();
    const menuPath = (table.menuPath ?? '').trim();
    schema['x-menu'] = { parent, path: menuPath, component: `${parent}/${menuPath}/index`, title: (table.menuTitle ?? '').trim() || title };
    if (!blank(table.menuIcon)) schema['x-menu'].icon = (table.menuIcon ?? '').trim();
  }
  schema['x-form'] = { mode: table.formMode as 'dialog' | 'page', width: table.formWidth, columns: table.formColumns === 1 ? 1 : 2 };
  if (pk) schema['x-sort'] = { default: pk.propertyName, order: tree ? 'asc' : 'desc' };
  if (tree) schema['x-tree'] = { parent: table.treeParent ?? '', label: table.treeLabel ?? '' };
  // The optimistic lock needs the table's own version column; without one the schema does not add it.
  if (!columns.some((c) => c.columnName === VERSION_COLUMN && isManagedColumn(c))) schema['x-version'] = false;
  if (columns.some((c) => c.columnName === SOFT_DELETE_COLUMN && isManagedColumn(c))) {
    schema['x-softDelete'] = { column: SOFT_DELETE_COLUMN, deleted: '2', active: '0' };
  }
  const required: string[] = [];
  let order = 0;
  for (const c of props) {
    const listed = on(c.isList) ? ++order : undefined;
    const p = property(c, listed, tree && c.propertyName === table.treeParent);
    schema.properties[c.propertyName] = p;
    if (on(c.isRequired) && !p.readOnly) required.push(c.propertyName);
  }
  if (required.length) {
    // `required` reads best right before the properties, as in the hand-written schemas.
    const { properties, ...head } = schema;
    return { ...head, required, properties };
  }
  return schema;
}

export const schemaText = (schema: EntitySchema) => `${JSON.stringify(schema, null, 2)}\n`;

/**
 * Problems of a generated schema: the meta-schema and the engine's cross checks (checkSchemas on a temporary folder
 * holding only this file), then clashes with the other files of the schemas folder (a file of the same entity is the
 * one being replaced and does not count).
 */
export function schemaProblems(schema: EntitySchema, schemasDir: string): string[] {
  const file = `${schema.$id}.json`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-gen-'));
  const out: string[] = [];
  try {
    fs.writeFileSync(path.join(tmp, file), schemaText(schema));
    for (const p of checkSchemas(tmp).problems) out.push(`${p.field ? `${p.field} ` : ''}${p.message}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (fs.existsSync(schemasDir)) {
    for (const { file: other, schema: s } of checkSchemas(schemasDir).schemas) {
      if (s.$id === schema.$id) continue;
      const name = `schemas/${path.relative(schemasDir, other).split(path.sep).join('/')}`; // schemas/<module>/<entity>.json
      if (s['x-table'] === schema['x-table']) out.push(`表'${schema['x-table']}'已由 ${name} 使用`);
      if (s['x-endpoint'].base === schema['x-endpoint'].base) out.push(`接口地址'${schema['x-endpoint'].base}'已由 ${name} 使用`);
      if (s['x-permissions'].list && s['x-permissions'].list === schema['x-permissions'].list) out.push(`权限前缀已由 ${name} 使用`);
    }
  }
  return out;
}

/** Builds and checks; any problem is refused with one Chinese message naming every problem. */
export function generateSchema(table: GenTable, columns: GenColumn[], schemasDir: string): GeneratedSchema {
  const config = configProblems(table, columns);
  if (config.length) throw fail(`生成配置有误：${config.join('；')}`);
  const schema = buildSchema(table, columns);
  const problems = schemaProblems(schema, schemasDir);
  if (problems.length) throw fail(`生成的 schema 未通过校验：${problems.join('；')}`);
  return { schema, fileName: `schemas/${schema.$id}.json`, text: schemaText(schema) };
}

import type { EntitySchema, PropertySchema, SearchOp, UiWidget, XList } from '@common/engine/types';
import type { CrudFilter } from '@refinedev/core';
import { baseType } from './resource';

/** What the generic pages read from a schema: the table columns, the search fields and each form field's widget. */

export interface ListColumn {
  name: string;
  title: string;
  list: XList;
  prop: PropertySchema;
}

/** Properties with x-list, by x-list.order (then declaration order). */
export function listColumnsOf(schema: EntitySchema): ListColumn[] {
  return Object.entries(schema.properties)
    .map(([name, prop], index) => ({ name, prop, index }))
    .filter(({ prop }) => prop['x-list'])
    .sort((a, b) => (a.prop['x-list']?.order ?? 1000 + a.index) - (b.prop['x-list']?.order ?? 1000 + b.index))
    .map(({ name, prop }) => ({ name, title: prop.title ?? name, list: prop['x-list'] ?? {}, prop }));
}

export interface SearchField {
  name: string;
  title: string;
  op: SearchOp;
  prop: PropertySchema;
}

/** Properties with x-search, in declaration order; not those an x-filter presets. */
export function searchFieldsOf(schema: EntitySchema): SearchField[] {
  const preset = schema['x-filter'] ?? {};
  return Object.entries(schema.properties)
    .filter(([name, prop]) => prop['x-search'] && !(name in preset))
    .map(([name, prop]) => ({ name, title: prop['x-search']?.title ?? prop.title ?? name, op: prop['x-search']?.op ?? 'eq', prop }));
}

/** Refine operator for a declared search op (the data provider maps by the declared op; this keeps the filter readable). */
const OPERATOR: Record<SearchOp, CrudFilter['operator']> = { like: 'contains', eq: 'eq', subtree: 'eq', range: 'between', dateRange: 'between' };

const blank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.every((x) => x === undefined || x === null || x === ''));

/** The search form's values → Refine filters (empty values dropped). */
export function filtersFromValues(fields: SearchField[], values: Record<string, unknown>): CrudFilter[] {
  return fields
    .filter((f) => !blank(values[f.name]))
    .map((f) => ({
      field: f.name,
      operator: OPERATOR[f.op] as 'eq',
      value: typeof values[f.name] === 'string' ? (values[f.name] as string).trim() : values[f.name],
    }))
    .filter((f) => !blank(f.value));
}

const WIDE: UiWidget[] = ['textarea', 'richText', 'imageUpload', 'videoUpload', 'fileUpload'];

/** The form widget of a property: x-ui.widget, else inferred from x-dict / x-relation / type / format / enum. */
export function widgetOf(schema: EntitySchema, name: string, prop: PropertySchema): UiWidget {
  const declared = prop['x-ui']?.widget;
  if (declared) return declared;
  if (schema['x-tree']?.parent === name || prop['x-relation']) return 'treeSelect';
  if (prop['x-dict']) return 'dictSelect';
  const type = baseType(prop);
  if (type === 'boolean') return 'switch';
  if (prop.format === 'date') return 'date';
  if (prop.format === 'date-time') return 'datetime';
  if (prop.format === 'color') return 'color';
  if (prop.enum) return 'select';
  if (type === 'integer' || type === 'number') return 'number';
  return 'text';
}

export function isWide(widget: UiWidget): boolean {
  return WIDE.includes(widget);
}

/** 请输入X for typed fields, 请选择X for chosen ones. */
export function placeholderOf(title: string, widget: UiWidget): string {
  return ['text', 'textarea', 'number', 'password', 'richText'].includes(widget) ? `请输入${title}` : `请选择${title}`;
}

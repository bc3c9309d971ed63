import { type EntitySchema, type PropertySchema, VALIDATION_KEYWORDS } from '@common/engine/types';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import { baseType } from '../resource';
import { isWide, placeholderOf, widgetOf } from '../schema';

/**
 * The RJSF schema and uiSchema of an entity form. The JSON Schema is cleaned to the standard validation keywords
 * (the x- extensions stay out of AJV); readOnly properties are left out when creating and shown disabled, after the
 * editable ones, when editing; `x-ui.hidden` properties are never in the form. Each field's widget comes from x-ui
 * (or is inferred), with its dictionary, relation, tree and x-ui options passed as ui:options.
 */
export type FormMode = 'create' | 'edit';

/** Validation keywords, and the description the form shows under the field. */
const KEEP = [...VALIDATION_KEYWORDS, 'description'] as const;

function clean(prop: PropertySchema, mode: FormMode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEEP) if (prop[key] !== undefined) out[key] = prop[key];
  // An array's items carry only standard keywords (type, enum, maxLength): passed as they are.
  if (prop.items) out.items = { ...prop.items };
  if (mode === 'create' && prop.default !== undefined) out.default = prop.default;
  return out;
}

/** A readOnly property as shown when editing: its value as it is, whatever it is (nothing to validate). */
function readOnlyProp(prop: PropertySchema): Record<string, unknown> {
  const type = baseType(prop) ?? 'string';
  return { type: [type, 'null'], title: prop.title, readOnly: true };
}

export interface BuiltForm {
  schema: RJSFSchema;
  uiSchema: UiSchema;
  /** Field names in the form, in order. */
  fields: string[];
}

export function buildForm(
  entity: EntitySchema,
  mode: FormMode,
  submitText = '确 定',
  fieldOptions: Record<string, Record<string, unknown>> = {},
  /** Properties left out (e.g. readOnly ones the record has no value for). */
  skip: ReadonlySet<string> = new Set(),
): BuiltForm {
  const columns = entity['x-form']?.columns ?? 1;
  const properties: Record<string, unknown> = {};
  const uiSchema: UiSchema = {};
  const editable: string[] = [];
  const locked: string[] = [];
  for (const [name, prop] of Object.entries(entity.properties)) {
    const ui = prop['x-ui'] ?? {};
    if (ui.hidden) continue;
    if (prop.readOnly && mode === 'create') continue;
    if (skip.has(name)) continue;
    const title = prop.title ?? name;
    if (prop.readOnly) {
      properties[name] = readOnlyProp(prop);
      const render = prop['x-list']?.render ?? (prop['x-audit'] === 'createTime' || prop['x-audit'] === 'updateTime' ? 'datetime' : 'text');
      uiSchema[name] = { 'ui:widget': 'readonlyText', 'ui:disabled': true, 'ui:options': { span: columns === 2 ? 12 : 24, render, dict: prop['x-dict'] } };
      locked.push(name);
      continue;
    }
    const widget = widgetOf(entity, name, prop);
    const { widget: _w, hidden: _h, span, placeholder, ...extra } = ui;
    properties[name] = clean(prop, mode);
    const tree = entity['x-tree'];
    const relation = prop['x-relation'] ?? (tree?.parent === name ? { schema: entity.$id, label: tree.label } : undefined);
    uiSchema[name] = {
      'ui:widget': widget,
      'ui:placeholder': placeholder ?? placeholderOf(title, widget),
      'ui:options': {
        ...extra,
        span: span ?? (columns === 2 && !isWide(widget) ? 12 : 24),
        dict: prop['x-dict'],
        relation,
        parentField: relation?.schema === entity.$id ? tree?.parent : undefined,
        // x-enumLabels: a select / radio of the enum shows the labels.
        ...(prop['x-enumLabels'] && prop.enum
          ? { choices: prop.enum.filter((v) => v !== null).map((v) => ({ label: prop['x-enumLabels']?.[String(v)] ?? String(v), value: v })) }
          : {}),
        ...fieldOptions[name],
      },
    };
    editable.push(name);
  }
  const fields = [...editable, ...locked];
  const writable = new Set(editable);
  const schema: RJSFSchema = {
    type: 'object',
    required: (entity.required ?? []).filter((r) => writable.has(r)),
    properties: properties as RJSFSchema['properties'],
  };
  uiSchema['ui:order'] = [...fields, '*'];
  uiSchema['ui:submitButtonOptions'] = { submitText, norender: false, props: { type: 'primary' } };
  return { schema, uiSchema, fields };
}

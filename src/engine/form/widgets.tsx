import type { PropertySchema } from '@common/engine/types';
import { useList } from '@refinedev/core';
import { getUiOptions, type ObjectFieldTemplateProps, type RegistryWidgetsType, type WidgetProps } from '@rjsf/utils';
import { Col, ColorPicker, DatePicker, Input, InputNumber, Radio, Row, Select, Spin, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useMemo } from 'react';
import { dictLabel, useDict } from '@/components/DictTag';
import { FileUpload } from '@/components/FileUpload';
import { IconSelect } from '@/components/IconSelect';
import { ImageUpload } from '@/components/ImageUpload';
import { TreeSelect } from '@/components/TreeSelect';
import { parseTime } from '@/utils/format';
import { useResourceDef } from '../registry';
import { baseType } from '../resource';
import { type Choice, type Relation, useRelationChoices } from './relationChoices';
import { VideoUploadWidget } from './VideoUpload';

/**
 * The RJSF widgets of the engine forms, by the x-ui.widget names of docs/schemas.md, all antd (zh_CN). Empty input
 * becomes undefined (so `required` catches it); dates on integer properties are epoch milliseconds, on string
 * properties 'YYYY-MM-DD' / 'YYYY-MM-DD HH:mm:ss'.
 */

const isNumeric = (schema: WidgetProps['schema']) => {
  const t = baseType(schema as PropertySchema);
  return t === 'integer' || t === 'number';
};

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

function TextWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, placeholder, schema, autofocus }: WidgetProps) {
  return (
    <Input
      id={id}
      value={value ?? ''}
      placeholder={placeholder}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      maxLength={schema.maxLength}
      onChange={(e) => onChange(emptyToUndefined(e.target.value))}
      onBlur={() => onBlur(id, value)}
      onFocus={() => onFocus(id, value)}
    />
  );
}

function PasswordWidget({ id, value, onChange, onBlur, disabled, readonly, placeholder, schema }: WidgetProps) {
  return (
    <Input.Password
      id={id}
      value={value ?? ''}
      placeholder={placeholder}
      disabled={disabled || readonly}
      maxLength={schema.maxLength}
      autoComplete="new-password"
      onChange={(e) => onChange(emptyToUndefined(e.target.value))}
      onBlur={() => onBlur(id, value)}
    />
  );
}

function TextareaWidget({ id, value, onChange, onBlur, disabled, readonly, placeholder, schema, options }: WidgetProps) {
  return (
    <Input.TextArea
      id={id}
      value={value ?? ''}
      placeholder={placeholder}
      disabled={disabled || readonly}
      maxLength={schema.maxLength}
      autoSize={{ minRows: Number(options.rows ?? 3), maxRows: 12 }}
      onChange={(e) => onChange(emptyToUndefined(e.target.value))}
      onBlur={() => onBlur(id, value)}
    />
  );
}

function NumberWidget({ id, value, onChange, onBlur, disabled, readonly, placeholder, schema }: WidgetProps) {
  const integer = baseType(schema as PropertySchema) === 'integer';
  return (
    <InputNumber
      id={id}
      style={{ width: '100%' }}
      value={value ?? null}
      placeholder={placeholder}
      disabled={disabled || readonly}
      min={schema.minimum}
      max={schema.maximum}
      precision={integer ? 0 : undefined}
      onChange={(v) => onChange(v ?? undefined)}
      onBlur={() => onBlur(id, value)}
    />
  );
}

/** On / off values of a switch: x-ui activeValue / inactiveValue, else boolean, else the first / second enum value. */
function switchValues(schema: WidgetProps['schema'], options: WidgetProps['options']): [unknown, unknown] {
  if (options.activeValue !== undefined) return [options.activeValue, options.inactiveValue];
  if (baseType(schema as PropertySchema) === 'boolean') return [true, false];
  const e = (schema.enum ?? []) as unknown[];
  return e.length >= 2 ? [e[0], e[1]] : [true, false];
}

function SwitchWidget({ id, value, onChange, disabled, readonly, schema, options }: WidgetProps) {
  const [on, off] = switchValues(schema, options);
  return <Switch id={id} checked={value === on} disabled={disabled || readonly} onChange={(checked) => onChange(checked ? on : off)} />;
}

// The related records' choices live in their own module (no RJSF), shared with the list's search form.
export { useRelationChoices };

/** Options from x-ui choices, else the x-dict dictionary, else the related records, else the enum (labels = values). */
function useChoices(options: WidgetProps['options'], schema: WidgetProps['schema']): Choice[] {
  const dict = useDict(typeof options.dict === 'string' ? options.dict : undefined);
  const related = useRelationChoices(options.relation as Relation | undefined);
  return useMemo(() => {
    const numeric = isNumeric(schema);
    if (Array.isArray(options.choices)) return options.choices as Choice[];
    if (dict.length > 0) return dict.map((d) => ({ label: d.label, value: numeric ? Number(d.value) : d.value }));
    if (related.length > 0) return related;
    return (options.enumOptions ?? []).map((o) => ({ label: String(o.label), value: o.value as string | number }));
  }, [dict, related, options.choices, options.enumOptions, schema]);
}

function RadioWidget({ id, value, onChange, disabled, readonly, options, schema }: WidgetProps) {
  const choices = useChoices(options, schema);
  return <Radio.Group id={id} value={value} disabled={disabled || readonly} options={choices} onChange={(e) => onChange(e.target.value)} />;
}

function SelectWidget(props: WidgetProps) {
  const { id, value, onChange, onBlur, disabled, readonly, placeholder, options, schema, multiple } = props;
  const choices = useChoices(options, schema);
  const many = multiple || baseType(schema as PropertySchema) === 'array';
  // Nothing to choose from (no dictionary, relation, enum or choices): still enterable.
  if (choices.length === 0 && !options.dict && !options.relation && !many)
    return <TextWidget {...props} placeholder={placeholder?.replace(/^请选择/, '请输入')} />;
  return (
    <Select
      id={id}
      style={{ width: '100%' }}
      value={value ?? undefined}
      mode={many ? 'multiple' : undefined}
      placeholder={placeholder}
      disabled={disabled || readonly}
      allowClear
      options={choices}
      onChange={(v) => onChange(emptyToUndefined(v))}
      onBlur={() => onBlur(id, value)}
    />
  );
}

/** A parent / related record chosen from a tree (x-tree parent or x-relation), loaded whole through the data provider. */
function TreeSelectWidget({ id, value, onChange, disabled, readonly, placeholder, options }: WidgetProps) {
  const relation = options.relation as { schema: string; label: string; key?: string } | undefined;
  const target = useResourceDef(relation?.schema);
  const { result } = useList({ resource: relation?.schema ?? '', pagination: { mode: 'off' }, queryOptions: { enabled: Boolean(target) } });
  const parentField = target?.schema['x-tree']?.parent;
  return (
    <TreeSelect
      id={id}
      data={(result?.data ?? []) as Record<string, unknown>[]}
      fieldNames={{ value: relation?.key ?? target?.primaryKey ?? 'id', label: relation?.label ?? 'label' }}
      parentId={parentField}
      value={value}
      onChange={(v) => onChange(emptyToUndefined(v))}
      placeholder={placeholder}
      disabled={disabled || readonly}
    />
  );
}

function toDay(value: unknown): Dayjs | null {
  if (value === undefined || value === null || value === '') return null;
  const d = dayjs(value as string | number);
  return d.isValid() ? d : null;
}

function DateWidget({ id, value, onChange, disabled, readonly, placeholder, schema }: WidgetProps) {
  return (
    <DatePicker
      id={id}
      style={{ width: '100%' }}
      value={toDay(value)}
      placeholder={placeholder}
      disabled={disabled || readonly}
      onChange={(d) => onChange(d ? (isNumeric(schema) ? d.startOf('day').valueOf() : d.format('YYYY-MM-DD')) : undefined)}
    />
  );
}

function DateTimeWidget({ id, value, onChange, disabled, readonly, placeholder, schema }: WidgetProps) {
  return (
    <DatePicker
      id={id}
      showTime
      style={{ width: '100%' }}
      value={toDay(value)}
      placeholder={placeholder}
      disabled={disabled || readonly}
      onChange={(d) => onChange(d ? (isNumeric(schema) ? d.valueOf() : d.format('YYYY-MM-DD HH:mm:ss')) : undefined)}
    />
  );
}

function DateRangeWidget({ id, value, onChange, disabled, readonly }: WidgetProps) {
  const pair = Array.isArray(value) ? value : [];
  return (
    <DatePicker.RangePicker
      id={id}
      style={{ width: '100%' }}
      value={[toDay(pair[0]), toDay(pair[1])]}
      disabled={disabled || readonly}
      onChange={(range) => onChange(range?.[0] && range[1] ? [range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD')] : undefined)}
    />
  );
}

function ImageUploadWidget({ id, value, onChange, disabled, readonly, options }: WidgetProps) {
  return (
    <ImageUpload
      id={id}
      value={value}
      onChange={onChange}
      disabled={disabled || readonly}
      limit={options.limit as number | undefined}
      fileSize={options.fileSize as number | undefined}
      fileType={options.fileType as string[] | undefined}
    />
  );
}

function FileUploadWidget({ id, value, onChange, disabled, readonly, options }: WidgetProps) {
  return (
    <FileUpload
      id={id}
      value={value}
      onChange={onChange}
      disabled={disabled || readonly}
      limit={options.limit as number | undefined}
      fileSize={options.fileSize as number | undefined}
      fileType={options.fileType as string[] | undefined}
    />
  );
}

// The editor (tiptap) loads only with a form that has a rich-text field.
const RichTextEditor = lazy(() => import('@/components/RichTextEditor').then((m) => ({ default: m.RichTextEditor })));

function RichTextWidget({ id, value, onChange, disabled, readonly, placeholder, options }: WidgetProps) {
  return (
    <Suspense fallback={<Spin />}>
      <RichTextEditor
        id={id}
        value={value}
        onChange={onChange}
        readOnly={disabled || readonly}
        placeholder={placeholder}
        height={options.height as number | undefined}
      />
    </Suspense>
  );
}

function ColorWidget({ id, value, onChange, disabled, readonly }: WidgetProps) {
  return (
    <span id={id}>
      <ColorPicker
        value={value || undefined}
        disabled={disabled || readonly}
        showText
        allowClear
        onChange={(c) => onChange(c.toHexString())}
        onClear={() => onChange(undefined)}
      />
    </span>
  );
}

/** 菜单图标: the icon picker (components/IconSelect) over the sidebar's icons. */
function IconSelectWidget({ id, value, onChange, disabled, readonly, placeholder }: WidgetProps) {
  return <IconSelect id={id} value={value} placeholder={placeholder} disabled={disabled || readonly} onChange={(v) => onChange(emptyToUndefined(v))} />;
}

/** A readOnly property while editing: its value formatted as the list shows it, not editable. */
function ReadonlyTextWidget({ id, value, options }: WidgetProps) {
  const dict = useDict(options.render === 'dict' && typeof options.dict === 'string' ? options.dict : undefined);
  let text: string;
  if (options.render === 'datetime') text = parseTime(value as number) ?? '';
  else if (options.render === 'date') text = parseTime(value as number, '{y}-{m}-{d}') ?? '';
  else if (options.render === 'dict') text = dictLabel(dict, value);
  else text = value === undefined || value === null ? '' : String(value);
  return <Input id={id} value={text} disabled />;
}

export const widgets: RegistryWidgetsType = {
  text: TextWidget,
  TextWidget,
  password: PasswordWidget,
  textarea: TextareaWidget,
  number: NumberWidget,
  updown: NumberWidget,
  switch: SwitchWidget,
  radio: RadioWidget,
  select: SelectWidget,
  SelectWidget,
  dictSelect: SelectWidget,
  treeSelect: TreeSelectWidget,
  date: DateWidget,
  datetime: DateTimeWidget,
  dateRange: DateRangeWidget,
  imageUpload: ImageUploadWidget,
  videoUpload: VideoUploadWidget,
  fileUpload: FileUploadWidget,
  richText: RichTextWidget,
  color: ColorWidget,
  readonlyText: ReadonlyTextWidget,
  iconSelect: IconSelectWidget,
};

/** Fields on a 24-column grid: each takes its ui:options.span (12 in a two-column form, wide widgets 24). */
export function GridObjectTemplate({ properties, uiSchema }: ObjectFieldTemplateProps) {
  return (
    <Row gutter={16}>
      {properties
        .filter((p) => !p.hidden)
        .map((p) => {
          const span = getUiOptions(uiSchema?.[p.name]).span;
          return (
            <Col key={p.name} xs={24} sm={typeof span === 'number' ? span : 24}>
              {p.content}
            </Col>
          );
        })}
    </Row>
  );
}

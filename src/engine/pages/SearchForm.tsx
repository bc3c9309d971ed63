import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, type FormInstance, Input, InputNumber, Select, Space } from 'antd';
import { memo } from 'react';
import { useAccess } from '@/components/Access';
import { useDict } from '@/components/DictTag';
import { useRelationChoices } from '../form/relationChoices';
import { useResourceRegistry } from '../registry';
import { baseType, type SearchFieldOverride } from '../resource';
import type { SearchField } from '../schema';

/**
 * The search form of a list: one field per x-search property — like → text box, eq → dictionary / enum select (or a
 * text / number box), dateRange → date range, range → from / to numbers — with 搜索 and 重置.
 */
function DictSearchSelect({
  type,
  placeholder,
  value,
  onChange,
  numeric,
}: {
  type: string;
  placeholder: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
  numeric: boolean;
}) {
  const options = useDict(type);
  return (
    <Select
      style={{ width: 200 }}
      allowClear
      placeholder={placeholder}
      value={value ?? undefined}
      onChange={onChange}
      options={options.map((o) => ({ label: o.label, value: numeric ? Number(o.value) : o.value }))}
    />
  );
}

function RelationSearchSelect({
  relation,
  placeholder,
  value,
  onChange,
}: {
  relation: { schema: string; label: string; key?: string };
  placeholder: string;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const choices = useRelationChoices(relation);
  return (
    <Select
      style={{ width: 200 }}
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={placeholder}
      value={value ?? undefined}
      onChange={onChange}
      options={choices}
    />
  );
}

function NumberRange({ value, onChange }: { value?: [number | null, number | null]; onChange?: (v: [number | null, number | null]) => void }) {
  const [from, to] = value ?? [null, null];
  return (
    <Space.Compact>
      <InputNumber placeholder="最小值" value={from} onChange={(v) => onChange?.([v, to])} style={{ width: 100 }} />
      <InputNumber placeholder="最大值" value={to} onChange={(v) => onChange?.([from, v])} style={{ width: 100 }} />
    </Space.Compact>
  );
}

/** x-enumLabels: the label of each enum value (else the value itself). */
export function enumOptions(prop: SearchField['prop']): Array<{ label: string; value: string }> {
  const labels = prop['x-enumLabels'] ?? {};
  return (prop.enum ?? []).filter((v) => v !== null).map((v) => ({ label: labels[String(v)] ?? String(v), value: v as string }));
}

function fieldInput(f: SearchField) {
  const type = baseType(f.prop);
  const numeric = type === 'integer' || type === 'number';
  if (f.op === 'dateRange') return <DatePicker.RangePicker style={{ width: 240 }} placeholder={['开始日期', '结束日期']} />;
  if (f.op === 'range') return <NumberRange />;
  if (f.op === 'eq' && f.prop['x-dict']) return <DictSearchSelect type={f.prop['x-dict']} placeholder={`请选择${f.title}`} numeric={numeric} />;
  if ((f.op === 'eq' || f.op === 'subtree') && f.prop['x-relation'])
    return <RelationSearchSelect relation={f.prop['x-relation']} placeholder={`请选择${f.title}`} />;
  if (f.op === 'eq' && f.prop.enum) return <Select style={{ width: 200 }} allowClear placeholder={`请选择${f.title}`} options={enumOptions(f.prop)} />;
  if (f.op === 'eq' && type === 'boolean')
    return (
      <Select
        style={{ width: 200 }}
        allowClear
        placeholder={`请选择${f.title}`}
        options={[
          { label: '是', value: true },
          { label: '否', value: false },
        ]}
      />
    );
  if (numeric) return <InputNumber style={{ width: 200 }} placeholder={`请输入${f.title}`} />;
  return <Input style={{ width: 200 }} allowClear placeholder={`请输入${f.title}`} maxLength={f.prop.maxLength} />;
}

export interface SearchFormProps {
  form: FormInstance;
  fields: SearchField[];
  onSearch: () => void;
  onReset: () => void;
  hidden?: boolean;
  initialValues?: Record<string, unknown>;
  /** The resource override's replaced inputs / visibility (override `searchFields`). */
  overrides?: Record<string, SearchFieldOverride>;
}

const alwaysVisible = () => true;

/**
 * One search field, left out when the user may not use it: `x-search.permission` not held, a relation whose target
 * list the user may not read (no choices and no refused call), or the override's useVisible() false.
 */
function SearchItem({ field: f, override }: { field: SearchField; override?: SearchFieldOverride }) {
  const { allowed } = useAccess();
  const registry = useResourceRegistry();
  const visible = (override?.useVisible ?? alwaysVisible)();
  const permission = f.prop['x-search']?.permission;
  const relation = f.prop['x-relation'];
  const targetList = relation && !override?.input ? registry.get(relation.schema)?.permissions.list : undefined;
  if (!visible) return null;
  if (permission && !allowed({ permissions: [permission] })) return null;
  if (targetList && !allowed({ permissions: [targetList] })) return null;
  const Input = override?.input;
  return (
    <Form.Item name={f.name} label={f.title}>
      {Input ? <Input placeholder={`请选择${f.title}`} /> : fieldInput(f)}
    </Form.Item>
  );
}

// Memoised: the list renders again when its rows arrive or the selection changes, and the form has nothing to show anew.
export const SearchForm = memo(function SearchForm({ form, fields, onSearch, onReset, hidden, initialValues, overrides }: SearchFormProps) {
  if (fields.length === 0) return null;
  return (
    <Form
      form={form}
      initialValues={initialValues}
      layout="inline"
      className="engine-search"
      onFinish={onSearch}
      style={{ marginBottom: 16, rowGap: 12, display: hidden ? 'none' : undefined }}
    >
      {fields.map((f) => (
        <SearchItem key={f.name} field={f} override={overrides?.[f.name]} />
      ))}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            搜索
          </Button>
          <Button icon={<ReloadOutlined />} onClick={onReset}>
            重置
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
});

import { CloseOutlined } from '@ant-design/icons';
import { TreeSelect as AntTreeSelect, Empty, Input, Tree } from 'antd';
import { useMemo, useState } from 'react';
import { handleTree } from '@/utils/format';

/**
 * Tree-select dropdown (spec §2.4, §3): takes a field map with defaults value = id, label = label,
 * children = children. Flat lists are built into a tree first (handleTree on id / parentId). The two-column variant
 * (TreeSelectPanel) filters the tree by label substring on the left and lists the chosen nodes on the right.
 */
export interface TreeFieldNames {
  value?: string;
  label?: string;
  children?: string;
}

type Node = Record<string, unknown>;

const DEFAULT_FIELDS: Required<TreeFieldNames> = { value: 'id', label: 'label', children: 'children' };

function fieldsOf(f?: TreeFieldNames): Required<TreeFieldNames> {
  return { ...DEFAULT_FIELDS, ...f };
}

/** The tree of `data`: as given, or built from a flat list when `parentId` names the parent field. */
export function useTreeData(data: readonly Node[], fields: Required<TreeFieldNames>, parentId?: string): Node[] {
  return useMemo(() => (parentId ? (handleTree(data, fields.value, parentId, fields.children) as Node[]) : [...data]), [data, fields, parentId]);
}

/** Nodes whose label contains `keyword`, with their ancestors (and a match's whole subtree). */
export function filterTree(nodes: readonly Node[], keyword: string, f: TreeFieldNames = {}): Node[] {
  const fields = fieldsOf(f);
  const k = keyword.trim();
  if (!k) return [...nodes];
  const walk = (list: readonly Node[]): Node[] =>
    list.flatMap((n) => {
      if (String(n[fields.label] ?? '').includes(k)) return [n];
      const kids = walk((n[fields.children] as Node[] | undefined) ?? []);
      return kids.length > 0 ? [{ ...n, [fields.children]: kids }] : [];
    });
  return walk(nodes);
}

export interface TreeSelectProps {
  data: readonly Node[];
  fieldNames?: TreeFieldNames;
  /** Parent field of a flat list (e.g. 'parentId'): the tree is built from it. */
  parentId?: string;
  value?: unknown;
  onChange?: (value: unknown) => void;
  placeholder?: string;
  multiple?: boolean;
  disabled?: boolean;
  id?: string;
}

export function TreeSelect({ data, fieldNames, parentId, value, onChange, placeholder = '请选择', multiple, disabled, id }: TreeSelectProps) {
  const fields = useMemo(() => fieldsOf(fieldNames), [fieldNames]);
  const tree = useTreeData(data, fields, parentId);
  return (
    <AntTreeSelect
      id={id}
      style={{ width: '100%' }}
      treeData={tree as never}
      fieldNames={{ value: fields.value, label: fields.label, children: fields.children }}
      value={value === null || value === '' ? undefined : (value as never)}
      onChange={(v) => onChange?.(v)}
      placeholder={placeholder}
      multiple={multiple}
      disabled={disabled}
      allowClear
      showSearch
      treeNodeFilterProp={fields.label}
      treeDefaultExpandAll
    />
  );
}

export interface TreeSelectPanelProps extends Omit<TreeSelectProps, 'value' | 'onChange' | 'multiple'> {
  value?: Array<string | number>;
  onChange?: (value: Array<string | number>) => void;
  height?: number;
}

/** Two-column variant: filter box and checkable tree on the left, the chosen nodes on the right. */
export function TreeSelectPanel({ data, fieldNames, parentId, value = [], onChange, disabled, height = 300, id }: TreeSelectPanelProps) {
  const fields = useMemo(() => fieldsOf(fieldNames), [fieldNames]);
  const tree = useTreeData(data, fields, parentId);
  const [keyword, setKeyword] = useState('');
  const shown = useMemo(() => filterTree(tree, keyword, fields), [tree, keyword, fields]);
  const byKey = useMemo(() => {
    const map = new Map<string, Node>();
    const walk = (list: readonly Node[]) => {
      for (const n of list) {
        map.set(String(n[fields.value]), n);
        walk((n[fields.children] as Node[] | undefined) ?? []);
      }
    };
    walk(tree);
    return map;
  }, [tree, fields]);
  const column = { flex: 1, border: '1px solid #dcdfe6', borderRadius: 4, padding: 8, height, overflow: 'auto' } as const;
  return (
    <div id={id} className="tree-select-panel" style={{ display: 'flex', gap: 12 }}>
      <div style={column}>
        <Input placeholder="输入关键字过滤" allowClear value={keyword} onChange={(e) => setKeyword(e.target.value)} style={{ marginBottom: 8 }} />
        <Tree
          checkable
          disabled={disabled}
          treeData={shown as never}
          fieldNames={{ key: fields.value, title: fields.label, children: fields.children }}
          checkedKeys={value as never}
          defaultExpandAll
          onCheck={(checked) => onChange?.((Array.isArray(checked) ? checked : checked.checked) as Array<string | number>)}
        />
      </div>
      <div style={column}>
        {value.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="未选择" />
        ) : (
          value.map((v) => (
            <div key={String(v)} style={{ display: 'flex', justifyContent: 'space-between', padding: '2px 0' }}>
              <span>{String(byKey.get(String(v))?.[fields.label] ?? v)}</span>
              {!disabled && <CloseOutlined aria-label="移除" style={{ cursor: 'pointer' }} onClick={() => onChange?.(value.filter((x) => x !== v))} />}
            </div>
          ))
        )}
      </div>
    </div>
  );
}

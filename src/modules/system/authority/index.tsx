import { ReloadOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { type AuthorityMatrix, type AuthorityRole, toggleGrant } from '@common/system/authority';
import { Alert, App, Button, Card, Checkbox, Input, Select, Space, Table, type TableColumnType, Tag, Tooltip } from 'antd';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { authorityMatrix, saveAuthority } from '@/api/system/authority';
import { useAccess } from '@/components/Access/useAccess';
import { filterRows, type MatrixRow, menuTree, rowIds, sameSet } from './rows';

/**
 * 权限 (component system/authority/index; page permission system:authority:list, saving system:authority:edit): menu
 * pages and their buttons (rows, grouped by 目录, with the permission string) × roles (columns), a tick where the role
 * holds it. Ticking works as 角色管理's linked menu tree (common/system/authority.ts toggleGrant); a column's header
 * ticks every row shown. 保存 sends each changed role's whole set with the version it was read on, through the same
 * server path as 角色管理 (server/system/authority.ts). The super admin role holds everything and cannot be changed.
 */

const TYPE_TAG: Record<string, ReactNode> = {
  M: <Tag color="blue">目录</Tag>,
  C: <Tag color="green">菜单</Tag>,
  F: <Tag>按钮</Tag>,
};

type Grants = Map<number, Set<number>>;
/** Width of a role's column: five roles and the menu columns fit a 1366 px screen without scrolling sideways. */
const ROLE_WIDTH = 100;

const grantsOf = (m: AuthorityMatrix): Grants => new Map(m.roles.map((r) => [r.roleId, new Set(m.grants[String(r.roleId)] ?? [])]));

export default function AuthorityPage() {
  const { message } = App.useApp();
  const { can } = useAccess();
  const editable = can('system:authority:edit');
  const [matrix, setMatrix] = useState<AuthorityMatrix | null>(null);
  const [draft, setDraft] = useState<Grants>(new Map());
  const [module, setModule] = useState<number | null>(null);
  const [keyword, setKeyword] = useState('');
  const [expanded, setExpanded] = useState<number[]>([]);
  const [loading, setLoading] = useState(false);
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const m = await authorityMatrix();
      setMatrix(m);
      setDraft(grantsOf(m));
    } catch {
      // the http layer has told the user; keep what is shown
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const saved = useMemo(() => (matrix ? grantsOf(matrix) : new Map<number, Set<number>>()), [matrix]);
  const tree = useMemo(() => menuTree(matrix?.menus ?? []), [matrix]);
  const shown = useMemo(() => filterRows(tree, module, keyword), [tree, module, keyword]);
  const shownIds = useMemo(() => rowIds(shown), [shown]);
  useEffect(() => setExpanded(shownIds.parents), [shownIds]);
  const changed = useMemo(
    () => (matrix?.roles ?? []).filter((r) => !r.admin && !sameSet(draft.get(r.roleId) ?? new Set(), saved.get(r.roleId) ?? new Set())),
    [matrix, draft, saved],
  );

  const tick = useCallback(
    (roleId: number, menuIds: number[], on: boolean) => {
      if (!matrix) return;
      setDraft((d) => {
        let set: Set<number> = d.get(roleId) ?? new Set();
        for (const id of menuIds) set = toggleGrant(matrix.menus, set, id, on);
        return new Map(d).set(roleId, set);
      });
    },
    [matrix],
  );

  const save = async () => {
    setSaving(true);
    try {
      const msg = await saveAuthority(changed.map((r) => ({ roleId: r.roleId, version: r.version, menuIds: [...(draft.get(r.roleId) ?? [])] })));
      message.success(msg || '保存成功');
      await load();
    } catch {
      // refused (数据已被他人修改 …): the http layer has shown the server's message; the changes stay to retry or undo
    } finally {
      setSaving(false);
    }
  };

  const roleColumn = useCallback(
    (role: AuthorityRole): TableColumnType<MatrixRow> => {
      const held = draft.get(role.roleId) ?? new Set<number>();
      const before = saved.get(role.roleId) ?? new Set<number>();
      const count = shownIds.all.filter((id) => held.has(id)).length;
      const title = (
        <Space direction="vertical" size={0} align="center">
          <span>
            {role.roleName}
            {role.status === '1' && <span style={{ color: '#8c8c8c' }}>（停用）</span>}
          </span>
          {role.admin ? (
            <span style={{ color: '#8c8c8c', fontWeight: 'normal' }}>全部权限</span>
          ) : (
            <Checkbox
              aria-label={`${role.roleName} 全选`}
              disabled={!editable || shownIds.all.length === 0}
              checked={count > 0 && count === shownIds.all.length}
              indeterminate={count > 0 && count < shownIds.all.length}
              onChange={(e) => tick(role.roleId, shownIds.all, e.target.checked)}
            />
          )}
        </Space>
      );
      return {
        key: `role-${role.roleId}`,
        title,
        width: ROLE_WIDTH,
        align: 'center',
        render: (_v, row) => {
          if (role.admin) {
            return (
              <Tooltip title="超级管理员拥有全部权限，不能修改">
                <Checkbox checked disabled aria-label={`${role.roleName} ${row.menuName}`} />
              </Tooltip>
            );
          }
          const on = held.has(row.menuId);
          return (
            <span className={on !== before.has(row.menuId) ? 'authority-cell changed' : 'authority-cell'}>
              <Checkbox
                aria-label={`${role.roleName} ${row.menuName}`}
                data-role={role.roleId}
                data-menu={row.menuId}
                checked={on}
                disabled={!editable}
                onChange={(e) => tick(role.roleId, [row.menuId], e.target.checked)}
              />
            </span>
          );
        },
        onCell: (row) => (!role.admin && held.has(row.menuId) !== before.has(row.menuId) ? { style: { background: '#fffbe6' } } : {}),
      };
    },
    [draft, saved, shownIds, editable, tick],
  );

  const columns = useMemo<TableColumnType<MatrixRow>[]>(
    () => [
      {
        key: 'menuName',
        dataIndex: 'menuName',
        title: '菜单 / 按钮',
        width: 200,
        fixed: 'left',
        ellipsis: true,
        render: (v: string, row) => (
          <span>
            {v}
            {row.status === '1' && <span style={{ color: '#8c8c8c' }}>（停用）</span>}
          </span>
        ),
      },
      { key: 'menuType', dataIndex: 'menuType', title: '类型', width: 64, align: 'center', render: (v: string) => TYPE_TAG[v] ?? v },
      {
        key: 'perms',
        dataIndex: 'perms',
        title: '权限字符',
        width: 200,
        ellipsis: true,
        render: (v: string | null) => (v ? <code>{v}</code> : <span style={{ color: '#bfbfbf' }}>—</span>),
      },
      ...(matrix?.roles ?? []).map(roleColumn),
    ],
    [matrix, roleColumn],
  );

  const modules = tree.filter((r) => r.menuType === 'M').map((r) => ({ value: r.menuId, label: r.menuName }));

  return (
    <div className="app-container authority-page" style={{ padding: 16 }}>
      <Card>
        <div style={{ display: 'flex', justifyContent: 'space-between', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
          <Space wrap>
            <Select
              className="authority-module"
              allowClear
              placeholder="全部模块"
              style={{ width: 160 }}
              options={modules}
              value={module ?? undefined}
              onChange={(v) => setModule(v ?? null)}
            />
            <Input.Search
              className="authority-keyword"
              allowClear
              placeholder="菜单名称或权限字符"
              style={{ width: 240 }}
              onSearch={setKeyword}
              onChange={(e) => !e.target.value && setKeyword('')}
            />
            <Button icon={<ReloadOutlined />} onClick={() => void load()}>
              刷新
            </Button>
          </Space>
          {editable && (
            <Space wrap>
              <Button icon={<UndoOutlined />} disabled={changed.length === 0 || saving} onClick={() => setDraft(grantsOf(matrix as AuthorityMatrix))}>
                撤销修改
              </Button>
              <Button type="primary" icon={<SaveOutlined />} disabled={changed.length === 0} loading={saving} onClick={() => void save()}>
                {changed.length ? `保存（${changed.length} 个角色有修改）` : '保存'}
              </Button>
            </Space>
          )}
        </div>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          message={
            editable
              ? '勾选某行时其下级和上级一并勾选，取消时其下级一并取消；保存后角色的用户在下一次操作时即按新权限生效，菜单在重新登录后更新。'
              : '当前账号只能查看权限，修改需要“权限 › 修改”按钮权限。'
          }
        />
        <Table<MatrixRow>
          className="authority-matrix"
          rowKey="menuId"
          size="small"
          bordered
          loading={loading}
          columns={columns}
          dataSource={shown}
          pagination={false}
          tableLayout="fixed"
          scroll={{ x: 464 + (matrix?.roles.length ?? 0) * ROLE_WIDTH, y: 'calc(100vh - 340px)' }}
          expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded([...keys] as number[]) }}
        />
      </Card>
    </div>
  );
}

import { DeleteOutlined, EditOutlined, FolderAddOutlined, PlusOutlined, SortAscendingOutlined } from '@ant-design/icons';
import { App, Button, Card, Space, Table, type TableColumnType, Tag } from 'antd';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { type MenuNode, menuConfig, menuDel } from '@/api/system/menu';
import { Access } from '@/components/Access';
import { DictTag } from '@/components/DictTag';
import { IconView } from '@/components/IconSelect';
import { RightToolbar } from '@/components/RightToolbar';
import { MenuConfigDialog, type MenuDialogState } from './MenuConfigDialog';

/**
 * 菜单配置 (component system/menuConfig/index; page permission system:menu:config): the whole menu as a tree table
 * from menuConfig, 添加目录 / 添加菜单 in the toolbar and per row 修改 / 删除 through menuSave / menuDel. Adding
 * needs system:menu:add and system:menu:edit (menuSave), changing system:menu:edit, deleting system:menu:remove.
 * The sidebar shows the changes after signing in again.
 */

const TYPE_TAG: Record<string, ReactNode> = {
  M: <Tag color="blue">目录</Tag>,
  C: <Tag color="green">菜单</Tag>,
  F: <Tag>按钮</Tag>,
};

/** The tree without empty children lists (no expander on leaves). */
function prune(list: MenuNode[]): MenuNode[] {
  return list.map(({ children, ...m }) => (children && children.length > 0 ? { ...m, children: prune(children) } : m));
}

function keysWithChildren(list: MenuNode[], out: number[] = []): number[] {
  for (const m of list) {
    if (m.children?.length) {
      out.push(m.menuId);
      keysWithChildren(m.children, out);
    }
  }
  return out;
}

/** Adding calls menuSave, which needs edit as well as add. */
function CanAdd({ children }: { children: ReactNode }) {
  return (
    <Access permissions={['system:menu:add']}>
      <Access permissions={['system:menu:edit']}>{children}</Access>
    </Access>
  );
}

export default function MenuConfigPage() {
  const { modal, message } = App.useApp();
  const [tree, setTree] = useState<MenuNode[]>([]);
  const [loading, setLoading] = useState(false);
  const [expanded, setExpanded] = useState<number[]>([]);
  const [dialog, setDialog] = useState<MenuDialogState | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setTree(prune(await menuConfig()));
    } catch {
      // The http layer has told the user; keep the last tree.
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const remove = (row: MenuNode) => {
    modal.confirm({
      title: '系统提示',
      content: `是否确认删除名称为"${row.menuName}"的数据项？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          message.success((await menuDel(row.menuId)) || '删除成功');
          await load();
        } catch {
          // Refused (存在子菜单 / 菜单已分配): the http layer has shown the server's message.
        }
      },
    });
  };

  const columns = useMemo<TableColumnType<MenuNode>[]>(
    () => [
      { key: 'menuName', dataIndex: 'menuName', title: '菜单名称', width: 190, ellipsis: true },
      { key: 'icon', dataIndex: 'icon', title: '图标', width: 60, align: 'center', render: (v: string | null) => <IconView name={v} /> },
      { key: 'menuType', dataIndex: 'menuType', title: '类型', width: 70, align: 'center', render: (v: string) => TYPE_TAG[v] ?? v },
      { key: 'orderNum', dataIndex: 'orderNum', title: '排序', width: 60, align: 'center' },
      { key: 'path', dataIndex: 'path', title: '路由地址', width: 120, ellipsis: true },
      { key: 'component', dataIndex: 'component', title: '组件路径', width: 160, ellipsis: true },
      { key: 'perms', dataIndex: 'perms', title: '权限字符', width: 160, ellipsis: true },
      {
        key: 'visible',
        dataIndex: 'visible',
        title: '显示状态',
        width: 90,
        align: 'center',
        render: (v: string) => <DictTag type="sys_show_hide" value={v} />,
      },
      { key: 'status', dataIndex: 'status', title: '状态', width: 80, align: 'center', render: (v: string) => <DictTag type="sys_normal_disable" value={v} /> },
      {
        key: '__actions',
        title: '操作',
        width: 140,
        align: 'center',
        fixed: 'right',
        render: (_v, row) => (
          <Space size={0}>
            <Access permissions={['system:menu:edit']}>
              <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setDialog({ kind: row.menuType, record: row })}>
                修改
              </Button>
            </Access>
            <Access permissions={['system:menu:remove']}>
              <Button type="link" size="small" danger icon={<DeleteOutlined />} onClick={() => remove(row)}>
                删除
              </Button>
            </Access>
          </Space>
        ),
      },
    ],
    [],
  );

  return (
    <div className="app-container menu-config" style={{ padding: 16 }}>
      <Card>
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', marginBottom: 12, gap: 8 }}>
          <Space wrap size={8}>
            <CanAdd>
              <Button color="primary" variant="filled" icon={<FolderAddOutlined />} onClick={() => setDialog({ kind: 'M' })}>
                添加目录
              </Button>
            </CanAdd>
            <CanAdd>
              <Button color="primary" variant="filled" icon={<PlusOutlined />} onClick={() => setDialog({ kind: 'C' })}>
                添加菜单
              </Button>
            </CanAdd>
            <Button
              color="default"
              variant="filled"
              icon={<SortAscendingOutlined />}
              onClick={() => setExpanded((e) => (e.length > 0 ? [] : keysWithChildren(tree)))}
            >
              展开/折叠
            </Button>
          </Space>
          <RightToolbar onRefresh={() => void load()} />
        </div>
        <Table<MenuNode>
          rowKey="menuId"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={tree}
          pagination={false}
          tableLayout="fixed"
          scroll={{ x: 1130 }}
          expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded([...keys] as number[]) }}
        />
      </Card>
      <MenuConfigDialog
        state={dialog}
        tree={tree}
        onClose={(saved) => {
          setDialog(null);
          if (saved) {
            message.success(dialog?.record ? '修改成功' : '新增成功');
            void load();
          }
        }}
      />
    </div>
  );
}

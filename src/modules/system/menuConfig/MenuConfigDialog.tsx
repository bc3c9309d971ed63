import type { MenuSaveBody, MenuType } from '@common/menu/menuSave';
import { Alert, Col, Form, Input, InputNumber, Modal, Radio, Row } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { type MenuNode, menuSave } from '@/api/system/menu';
import { useDict } from '@/components/DictTag';
import { IconSelect } from '@/components/IconSelect';
import { TreeSelect } from '@/components/TreeSelect';

/**
 * The dialogs of 菜单配置: 添加目录 (上级目录, 目录名称, 路由地址, 图标, 排序, 显示状态), 添加菜单 (上级目录, 菜单名称,
 * 路由地址, 组件路径, 权限字符, 图标, 排序, 是否缓存, 显示状态) and, for a button row, 修改按钮 (上级菜单, 按钮名称,
 * 权限字符, 排序). Saved through menuSave; an update sends the stored menu with the changed fields (menuSave
 * replaces the whole record). A refusal is toasted by the http layer and also shown here; the dialog stays open.
 */

export interface MenuDialogState {
  kind: MenuType;
  /** The menu being changed; none when adding. */
  record?: MenuNode;
  /** The parent a new menu starts under. */
  parentId?: number;
}

interface Values {
  parentId: number;
  menuName: string;
  path?: string;
  component?: string;
  perms?: string;
  icon?: string;
  orderNum: number;
  isCache?: number;
  visible?: string;
}

const NAME_LABEL: Record<MenuType, string> = { M: '目录名称', C: '菜单名称', F: '按钮名称' };
const KIND_LABEL: Record<MenuType, string> = { M: '目录', C: '菜单', F: '按钮' };

export function dialogTitle(state: MenuDialogState): string {
  return `${state.record ? '修改' : '添加'}${KIND_LABEL[state.kind]}`;
}

type FlatNode = { menuId: number; menuName: string; parentId: number };

/** The parents a menu of this kind may hang under: directories (and pages, for a button), below the root 主类目. */
function parentChoices(tree: MenuNode[], kind: MenuType, self?: number): FlatNode[] {
  const out: FlatNode[] = [{ menuId: 0, menuName: '主类目', parentId: -1 }];
  const walk = (list: MenuNode[]) => {
    for (const m of list) {
      if (m.menuId === self) continue; // not itself, nor anything below it
      if (m.menuType === 'M' || (kind === 'F' && m.menuType === 'C')) out.push({ menuId: m.menuId, menuName: m.menuName, parentId: m.parentId });
      if (m.children) walk(m.children);
    }
  };
  walk(tree);
  return out;
}

function initialValues(state: MenuDialogState): Values {
  const r = state.record;
  if (r)
    return {
      parentId: r.parentId,
      menuName: r.menuName,
      path: r.path || undefined,
      component: r.component ?? undefined,
      perms: r.perms ?? undefined,
      icon: r.icon && r.icon !== '#' ? r.icon : undefined,
      orderNum: r.orderNum,
      isCache: r.isCache,
      visible: r.visible,
    };
  return { parentId: state.parentId ?? 0, menuName: '', orderNum: 0, isCache: 0, visible: '0' };
}

export function MenuConfigDialog({ state, tree, onClose }: { state: MenuDialogState | null; tree: MenuNode[]; onClose: (saved: boolean) => void }) {
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const showHide = useDict('sys_show_hide');
  const kind = state?.kind ?? 'M';
  const parents = useMemo(() => parentChoices(tree, kind, state?.record?.menuId), [tree, kind, state?.record?.menuId]);

  useEffect(() => {
    if (!state) return;
    setError(null);
    form.resetFields();
    form.setFieldsValue(initialValues(state));
  }, [state, form]);

  const save = async () => {
    if (!state) return;
    const values = await form.validateFields();
    const trimmed = (v?: string) => (v?.trim() ? v.trim() : undefined);
    const { children: _children, createTime: _createTime, ...stored } = state.record ?? ({} as Partial<MenuNode>);
    const body: MenuSaveBody = {
      ...stored,
      menuType: state.kind,
      parentId: values.parentId ?? 0,
      menuName: values.menuName.trim(),
      orderNum: values.orderNum ?? 0,
      ...(state.kind !== 'F' ? { path: trimmed(values.path), icon: values.icon ?? '#', visible: values.visible ?? '0' } : {}),
      ...(state.kind === 'C' ? { component: trimmed(values.component) ?? null, isCache: values.isCache ?? 0 } : {}),
      ...(state.kind !== 'M' ? { perms: trimmed(values.perms) ?? null } : {}),
    };
    setBusy(true);
    setError(null);
    try {
      await menuSave(body);
      onClose(true);
    } catch (e) {
      setError((e as Error).message || '保存失败');
    } finally {
      setBusy(false);
    }
  };

  const required = (label: string) => [{ required: true, whitespace: true, message: `${label}不能为空` }];
  return (
    <Modal
      title={state ? dialogTitle(state) : ''}
      open={Boolean(state)}
      width={680}
      maskClosable={false}
      destroyOnHidden
      okText="确 定"
      cancelText="取 消"
      confirmLoading={busy}
      onOk={save}
      onCancel={() => onClose(false)}
    >
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} closable onClose={() => setError(null)} />}
      <Form form={form} labelCol={{ flex: '100px' }} wrapperCol={{ flex: '1 1 0', style: { minWidth: 0 } }} colon={false} disabled={busy} preserve={false}>
        <Form.Item name="parentId" label={kind === 'F' ? '上级菜单' : '上级目录'} rules={[{ required: true, message: '上级目录不能为空' }]}>
          <TreeSelect data={parents} fieldNames={{ value: 'menuId', label: 'menuName' }} parentId="parentId" placeholder="选择上级目录" />
        </Form.Item>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="menuName"
              label={NAME_LABEL[kind]}
              rules={[...required(NAME_LABEL[kind]), { max: 50, message: `${NAME_LABEL[kind]}长度不能超过 50 个字符` }]}
            >
              <Input placeholder={`请输入${NAME_LABEL[kind]}`} maxLength={50} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="orderNum" label="排序" rules={[{ required: true, message: '排序不能为空' }]}>
              <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} placeholder="请输入排序" />
            </Form.Item>
          </Col>
          {kind !== 'F' && (
            <Col span={12}>
              <Form.Item
                name="path"
                label="路由地址"
                tooltip="访问的路由地址，如：user；外网地址以 http(s):// 开头"
                rules={[...required('路由地址'), { max: 200, message: '路由地址长度不能超过 200 个字符' }]}
              >
                <Input placeholder="请输入路由地址" maxLength={200} />
              </Form.Item>
            </Col>
          )}
          {kind === 'C' && (
            <Col span={12}>
              <Form.Item
                name="component"
                label="组件路径"
                tooltip="访问的组件路径，如：system/user/index"
                rules={[{ max: 255, message: '组件路径长度不能超过 255 个字符' }]}
              >
                <Input placeholder="请输入组件路径" maxLength={255} />
              </Form.Item>
            </Col>
          )}
          {kind !== 'M' && (
            <Col span={12}>
              <Form.Item name="perms" label="权限字符" tooltip="如：system:user:list" rules={[{ max: 100, message: '权限字符长度不能超过 100 个字符' }]}>
                <Input placeholder="请输入权限标识" maxLength={100} />
              </Form.Item>
            </Col>
          )}
          {kind !== 'F' && (
            <Col span={12}>
              <Form.Item name="icon" label="图标">
                <IconSelect placeholder="点击选择图标" />
              </Form.Item>
            </Col>
          )}
          {kind === 'C' && (
            <Col span={12}>
              <Form.Item name="isCache" label="是否缓存">
                <Radio.Group
                  options={[
                    { label: '缓存', value: 0 },
                    { label: '不缓存', value: 1 },
                  ]}
                />
              </Form.Item>
            </Col>
          )}
          {kind !== 'F' && (
            <Col span={12}>
              <Form.Item name="visible" label="显示状态">
                <Radio.Group options={showHide.map((d) => ({ label: d.label, value: d.value }))} />
              </Form.Item>
            </Col>
          )}
        </Row>
      </Form>
    </Modal>
  );
}

import type { StoreBrief } from '@common/customer/stores';
import type { RoleChoice } from '@common/system/roles';
import type { TreeNode } from '@common/system/treeSelect';
import { Col, Form, Input, Radio, Row, Select, TreeSelect } from 'antd';
import { useState } from 'react';
import { request } from '@/api/request';
import { deptTreeSelect, getInitPassword, getUserFormChoices, type PostChoice } from '@/api/system/user';
import { useDict } from '@/components/DictTag';
import { FormDialog, useFormDialog } from '@/components/FormDialog';
import type { EngineRecordPageProps } from '@/engine/resource';

/**
 * 新增用户 / 修改用户 (RuoYi system/user form, two columns), in place of the generic form because a user also
 * carries 岗位 and 角色 (postIds / roleIds, kept in step by the server). 用户名称 and 用户密码 only when adding; the
 * password starts as the initial password of 参数设置 sys.user.initPassword. Rules match the server's (schemas/system/sys_user.json).
 */

interface UserForm {
  userName?: string;
  password?: string;
  nickName?: string;
  deptId?: number | null;
  mobile?: string;
  email?: string;
  sex?: string;
  status?: string;
  postIds?: number[];
  roleIds?: number[];
  storeId?: number | null;
  remark?: string;
}

const BASE = '/dev-api/system/user';
const ILLEGAL = /[<>"'|\\]/;
const blankToNull = (v: unknown) => (v === undefined || v === '' ? null : v);

export default function UserFormDialog({ id, onClose }: EngineRecordPageProps) {
  const [form] = Form.useForm<UserForm>();
  const creating = id === undefined;
  const [depts, setDepts] = useState<TreeNode[]>([]);
  const [roles, setRoles] = useState<RoleChoice[]>([]);
  const [posts, setPosts] = useState<PostChoice[]>([]);
  const [stores, setStores] = useState<StoreBrief[]>([]);
  const [record, setRecord] = useState<Record<string, unknown> | null>(null);
  const sexes = useDict('sys_user_sex');
  const statuses = useDict('sys_normal_disable');

  const save = async (values: UserForm) => {
    const common = {
      nickName: values.nickName?.trim(),
      deptId: blankToNull(values.deptId),
      mobile: blankToNull(values.mobile?.trim()),
      email: blankToNull(values.email?.trim()),
      sex: values.sex,
      status: values.status,
      remark: blankToNull(values.remark),
      postIds: values.postIds ?? [],
      roleIds: values.roleIds ?? [],
      storeId: blankToNull(values.storeId),
    };
    if (creating) {
      await request({ url: BASE, method: 'post', data: { ...common, userName: values.userName?.trim(), password: values.password } });
      return '新增成功';
    }
    await request({
      url: BASE,
      method: 'put',
      data: { ...common, userId: record?.userId, userName: record?.userName, version: record?.version },
    });
    return '修改成功';
  };

  const { dialog } = useFormDialog(form, {
    save,
    onClose,
    load: async (alive) => {
      const [tree, choices] = await Promise.all([deptTreeSelect(), getUserFormChoices()]);
      if (!alive()) return;
      setDepts(tree);
      setRoles(choices.roles);
      setPosts(choices.posts);
      setStores(choices.stores);
      if (creating) {
        form.setFieldsValue({ status: '0', sex: '2', password: (await getInitPassword()) || undefined, postIds: [], roleIds: [] });
        return;
      }
      const env = await request<Record<string, unknown>>({ url: `${BASE}/${encodeURIComponent(String(id))}`, method: 'get' });
      if (!alive()) return;
      const data = env.data ?? {};
      setRecord(data);
      form.setFieldsValue({
        nickName: data.nickName as string,
        deptId: (data.deptId as number | null) ?? undefined,
        mobile: (data.mobile as string | null) ?? undefined,
        email: (data.email as string | null) ?? undefined,
        sex: data.sex as string,
        status: data.status as string,
        postIds: (data.postIds as number[] | undefined) ?? [],
        roleIds: (data.roleIds as number[] | undefined) ?? [],
        storeId: (data.storeId as number | null) ?? undefined,
        remark: (data.remark as string | null) ?? undefined,
      });
    },
  });

  const roleOptions = roles.map((r) => ({ label: r.roleName, value: r.roleId, disabled: r.status === '1' }));
  const postOptions = posts.map((p) => ({ label: p.postName, value: p.postId, disabled: p.status === '1' }));
  const storeOptions = stores.map((s) => ({ label: s.headquarters ? `${s.storeName}（总部）` : s.storeName, value: s.storeId, disabled: s.status !== '0' }));
  // 机构负责人 / 志愿专家 work for one store: the server refuses them without one (请选择所属门店), so the form asks first.
  const chosenRoles = Form.useWatch('roleIds', form) ?? [];
  const storeRequired = roles.some((r) => chosenRoles.includes(r.roleId) && (r.roleKey === 'leader' || r.roleKey === 'expert'));

  return (
    <FormDialog title={creating ? '新增用户' : '修改用户'} width={680} {...dialog}>
      <Form
        form={form}
        labelCol={{ flex: '96px' }}
        wrapperCol={{ flex: '1 1 0', style: { minWidth: 0 } }}
        colon={false}
        className="user-form"
        disabled={dialog.busy}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item label="用户昵称" name="nickName" rules={[{ required: true, whitespace: true, message: '用户昵称不能为空' }]}>
              <Input placeholder="请输入用户昵称" maxLength={30} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="归属部门" name="deptId">
              <TreeSelect
                treeData={depts}
                fieldNames={{ label: 'label', value: 'id', children: 'children' }}
                placeholder="请选择归属部门"
                allowClear
                showSearch
                treeNodeFilterProp="label"
                treeDefaultExpandAll
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="手机号码" name="mobile" rules={[{ pattern: /^1[3-9]\d{9}$/, message: '请输入正确的手机号码' }]}>
              <Input placeholder="请输入手机号码" maxLength={11} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="邮箱" name="email" rules={[{ type: 'email', message: '请输入正确的邮箱地址' }]}>
              <Input placeholder="请输入邮箱" maxLength={50} />
            </Form.Item>
          </Col>
          {creating && (
            <>
              <Col span={12}>
                <Form.Item
                  label="用户名称"
                  name="userName"
                  rules={[
                    { required: true, whitespace: true, message: '用户名称不能为空' },
                    { min: 2, max: 20, message: '用户名称长度必须介于 2 和 20 之间' },
                    { pattern: /^[A-Za-z0-9_]+$/, message: '用户名称只能包含字母、数字和下划线' },
                  ]}
                >
                  <Input placeholder="请输入用户名称" maxLength={20} autoComplete="off" />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  label="用户密码"
                  name="password"
                  rules={[
                    { required: true, message: '用户密码不能为空' },
                    { min: 5, max: 20, message: '用户密码长度必须介于 5 和 20 之间' },
                    {
                      validator: (_r, v: string | undefined) =>
                        v && ILLEGAL.test(v) ? Promise.reject(new Error('不能包含非法字符：< > " \' \\ |')) : Promise.resolve(),
                    },
                  ]}
                >
                  <Input.Password placeholder="请输入用户密码" maxLength={20} autoComplete="new-password" />
                </Form.Item>
              </Col>
            </>
          )}
          <Col span={12}>
            <Form.Item label="用户性别" name="sex">
              <Select placeholder="请选择性别" options={sexes.map((d) => ({ label: d.label, value: d.value }))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="状态" name="status">
              <Radio.Group options={statuses.map((d) => ({ label: d.label, value: d.value }))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="岗位" name="postIds">
              <Select mode="multiple" placeholder="请选择岗位" options={postOptions} optionFilterProp="label" allowClear />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="角色" name="roleIds">
              <Select mode="multiple" placeholder="请选择角色" options={roleOptions} optionFilterProp="label" allowClear />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              label="所属门店"
              name="storeId"
              tooltip="总部门店的员工可查看所有门店；其他门店的员工只能查看本门店"
              rules={[{ required: storeRequired, message: '请选择所属门店' }]}
            >
              <Select placeholder="请选择所属门店" options={storeOptions} allowClear />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item label="备注" name="remark">
              <Input.TextArea placeholder="请输入内容" maxLength={500} autoSize={{ minRows: 3, maxRows: 8 }} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormDialog>
  );
}

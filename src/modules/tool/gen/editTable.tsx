import type { Flag, GenColumn, GenTable } from '@common/gen/tables';
import { useInvalidate } from '@refinedev/core';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
  Spin,
  Table,
  type TableColumnType,
  Tabs,
  Tag,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { type DictTypeOption, dictTypeOptions, getGenTable, updateGenTable } from '@/api/gen';

/**
 * 修改生成配置 (/tool/gen-edit/index/:tableId, RuoYi tool/gen/editTable): 基本信息, 字段信息 (how each column becomes a
 * property of the schema) and 生成信息 (menu, permissions, endpoint, form, tree). 提交 saves (with the version the
 * page was loaded with) and goes back to 代码生成 (whose list, kept in its tab, reads the rows again); 返回 goes back
 * without saving.
 */

const WIDGETS: Record<string, string> = {
  text: '文本框',
  textarea: '文本域',
  number: '数字框',
  switch: '开关',
  radio: '单选框',
  select: '下拉框',
  dictSelect: '字典下拉框',
  treeSelect: '树选择',
  date: '日期控件',
  datetime: '日期时间控件',
  imageUpload: '图片上传',
  fileUpload: '文件上传',
  richText: '富文本控件',
  color: '颜色选择',
  password: '密码框',
};
/** Widgets that fit each property type (same table as the server, server/gen/model.ts). */
const WIDGETS_BY_TYPE: Record<string, string[]> = {
  string: ['text', 'textarea', 'select', 'radio', 'dictSelect', 'imageUpload', 'fileUpload', 'richText', 'color', 'password'],
  integer: ['number', 'select', 'radio', 'dictSelect', 'treeSelect', 'date', 'datetime'],
  number: ['number', 'select', 'radio', 'dictSelect'],
  boolean: ['switch', 'radio', 'select'],
};
const DEFAULT_WIDGET: Record<string, string> = { string: 'text', integer: 'number', number: 'number', boolean: 'switch' };
const SEARCH_OPS = [
  { value: 'eq', label: '=' },
  { value: 'like', label: 'LIKE' },
  { value: 'range', label: 'BETWEEN' },
  { value: 'dateRange', label: '日期范围' },
];
const PROPERTY_TYPES = [
  { value: 'string', label: 'string 字符串' },
  { value: 'integer', label: 'integer 整数' },
  { value: 'number', label: 'number 小数' },
  { value: 'boolean', label: 'boolean 布尔' },
];

/** version (optimistic lock) and del_flag (soft delete) are handled by the engine, not properties. */
const managed = (c: GenColumn) => (c.columnName === 'version' && c.propertyType === 'integer') || (c.columnName === 'del_flag' && c.propertyType === 'string');
const isAudit = (c: GenColumn) => ['create_time', 'update_time', 'create_by', 'update_by'].includes(c.columnName);
const on = (f: Flag) => f === '1';
const flag = (b: boolean): Flag => (b ? '1' : '0');

type BasicValues = Pick<GenTable, 'tableName' | 'tableComment' | 'entityName' | 'remark'>;
type GenValues = Pick<
  GenTable,
  | 'menuParent'
  | 'menuPath'
  | 'menuTitle'
  | 'menuIcon'
  | 'permissionPrefix'
  | 'endpointBase'
  | 'formMode'
  | 'formWidth'
  | 'formColumns'
  | 'treeParent'
  | 'treeLabel'
>;

export default function GenEditTable() {
  const { tableId } = useParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const invalidate = useInvalidate();
  const [info, setInfo] = useState<GenTable | null>(null);
  const [columns, setColumns] = useState<GenColumn[]>([]);
  const [dicts, setDicts] = useState<DictTypeOption[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tab, setTab] = useState('columns');
  const [basicForm] = Form.useForm<BasicValues>();
  const [genForm] = Form.useForm<GenValues>();

  useEffect(() => {
    if (!tableId) return;
    let live = true;
    setLoading(true);
    getGenTable(tableId)
      .then((res) => {
        if (!live) return;
        setInfo(res.info);
        setColumns(res.rows);
      })
      .catch((e: Error) => live && setError(e.message || '加载失败'))
      .finally(() => live && setLoading(false));
    dictTypeOptions()
      .then((d) => live && setDicts(d))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [tableId]);

  const update = (columnId: number, patch: Partial<GenColumn>) => setColumns((cs) => cs.map((c) => (c.columnId === columnId ? { ...c, ...patch } : c)));
  const back = () => navigate('/tool/gen');

  const submit = async () => {
    if (!info) return;
    let basic: BasicValues;
    let gen: GenValues;
    try {
      basic = await basicForm.validateFields();
    } catch {
      setTab('basic');
      message.error('表单校验未通过，请重新检查提交内容');
      return;
    }
    try {
      gen = await genForm.validateFields();
    } catch {
      setTab('gen');
      message.error('表单校验未通过，请重新检查提交内容');
      return;
    }
    setBusy(true);
    try {
      message.success(await updateGenTable({ ...info, ...basic, ...gen, columns }));
      // The list (schemas/gen/gen_table.json) is read again when its tab shows (it may still hold the old rows).
      void invalidate({ resource: 'gen_table', invalidates: ['list'] });
      back();
    } catch {
      // The http layer has shown the refusal (e.g. 生成配置有误：…); the page keeps the edits.
    } finally {
      setBusy(false);
    }
  };

  const dictOptions = useMemo(() => dicts.map((d) => ({ value: d.dictType, label: `${d.dictName}（${d.dictType}）` })), [dicts]);
  const propertyNames = columns.filter((c) => !managed(c)).map((c) => ({ value: c.propertyName, label: `${c.propertyName}：${c.columnComment}` }));
  const integerNames = columns
    .filter((c) => !managed(c) && c.propertyType === 'integer' && !on(c.isPk))
    .map((c) => ({ value: c.propertyName, label: `${c.propertyName}：${c.columnComment}` }));

  const check = (key: 'isInsert' | 'isEdit' | 'isList' | 'isSearch' | 'isRequired' | 'isSortable', title: string): TableColumnType<GenColumn> => ({
    key,
    title,
    width: 56,
    align: 'center',
    render: (_v, c) => (
      <Checkbox
        aria-label={`${c.columnName} ${title}`}
        checked={on(c[key])}
        disabled={managed(c) || ((key === 'isInsert' || key === 'isEdit' || key === 'isRequired') && (on(c.isPk) || isAudit(c)))}
        onChange={(e) => update(c.columnId, { [key]: flag(e.target.checked) })}
      />
    ),
  });

  const tableColumns: TableColumnType<GenColumn>[] = [
    { key: 'sort', title: '序号', width: 56, align: 'center', render: (_v, _c, i) => i + 1 },
    {
      key: 'columnName',
      title: '字段列名',
      width: 130,
      render: (_v, c) => (
        <span>
          {c.columnName}
          {on(c.isPk) && (
            <Tag color="blue" style={{ marginLeft: 4 }}>
              主键
            </Tag>
          )}
          {managed(c) && (
            <Tag style={{ marginLeft: 4 }} title={c.columnName === 'version' ? '乐观锁版本号，由引擎维护' : '软删除标记，由引擎维护'}>
              引擎管理
            </Tag>
          )}
        </span>
      ),
    },
    {
      key: 'columnComment',
      title: '字段描述',
      width: 150,
      render: (_v, c) => (
        <Input
          aria-label={`${c.columnName} 字段描述`}
          value={c.columnComment}
          maxLength={100}
          disabled={managed(c)}
          onChange={(e) => update(c.columnId, { columnComment: e.target.value })}
        />
      ),
    },
    { key: 'columnType', dataIndex: 'columnType', title: '物理类型', width: 110, ellipsis: true },
    {
      key: 'propertyType',
      title: '属性类型',
      width: 140,
      render: (_v, c) => (
        <Select
          aria-label={`${c.columnName} 属性类型`}
          style={{ width: '100%' }}
          value={c.propertyType}
          disabled={managed(c) || on(c.isPk)}
          options={PROPERTY_TYPES}
          onChange={(v: GenColumn['propertyType']) =>
            update(c.columnId, { propertyType: v, widget: WIDGETS_BY_TYPE[v].includes(c.widget) ? c.widget : DEFAULT_WIDGET[v] })
          }
        />
      ),
    },
    {
      key: 'propertyName',
      title: '属性名称',
      width: 130,
      render: (_v, c) => (
        <Input
          aria-label={`${c.columnName} 属性名称`}
          value={c.propertyName}
          maxLength={64}
          disabled={managed(c)}
          onChange={(e) => update(c.columnId, { propertyName: e.target.value.trim() })}
        />
      ),
    },
    check('isInsert', '插入'),
    check('isEdit', '编辑'),
    check('isList', '列表'),
    check('isSearch', '查询'),
    {
      key: 'searchOp',
      title: '查询方式',
      width: 110,
      render: (_v, c) => (
        <Select
          aria-label={`${c.columnName} 查询方式`}
          style={{ width: '100%' }}
          value={c.searchOp}
          disabled={managed(c) || !on(c.isSearch)}
          options={SEARCH_OPS}
          onChange={(v: GenColumn['searchOp']) => update(c.columnId, { searchOp: v })}
        />
      ),
    },
    check('isRequired', '必填'),
    check('isSortable', '排序'),
    {
      key: 'widget',
      title: '显示类型',
      width: 140,
      render: (_v, c) => (
        <Select
          aria-label={`${c.columnName} 显示类型`}
          style={{ width: '100%' }}
          value={c.widget}
          disabled={managed(c)}
          options={(WIDGETS_BY_TYPE[c.propertyType] ?? []).map((w) => ({ value: w, label: WIDGETS[w] ?? w }))}
          onChange={(v: string) => update(c.columnId, { widget: v })}
        />
      ),
    },
    {
      key: 'dictType',
      title: '字典类型',
      width: 180,
      render: (_v, c) => (
        <Select
          aria-label={`${c.columnName} 字典类型`}
          style={{ width: '100%' }}
          value={c.dictType || undefined}
          placeholder="请选择"
          allowClear
          showSearch
          optionFilterProp="label"
          disabled={managed(c) || on(c.isPk)}
          options={dictOptions}
          onChange={(v?: string) => update(c.columnId, { dictType: v ?? '' })}
        />
      ),
    },
  ];

  if (loading) return <Spin style={{ display: 'block', padding: 48 }} />;
  if (error || !info) return <Alert style={{ margin: 16 }} type="error" showIcon message={error ?? '数据不存在或已被删除'} />;

  const basicTab = (
    <Form<BasicValues> name="genBasic" form={basicForm} initialValues={info} labelCol={{ flex: '100px' }} className="gen-basic">
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item label="表名称" name="tableName">
            <Input disabled />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="表描述"
            name="tableComment"
            rules={[{ required: true, whitespace: true, message: '请输入表描述' }]}
            tooltip="schema 的 title：菜单、标签页、对话框标题"
          >
            <Input placeholder="请输入表描述" maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="实体名称"
            name="entityName"
            tooltip="schema 的 $id，也是文件名 schemas/<实体名称>.json"
            rules={[
              { required: true, message: '请输入实体名称' },
              { pattern: /^[A-Za-z][A-Za-z0-9_]*$/, message: '实体名称以字母开头，只含字母、数字和下划线' },
            ]}
          >
            <Input placeholder="请输入实体名称" maxLength={64} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label="备注" name="remark">
            <Input.TextArea rows={3} maxLength={500} placeholder="请输入备注（写入 schema 的 description）" />
          </Form.Item>
        </Col>
      </Row>
    </Form>
  );

  const genTab = (
    <Form<GenValues> name="genInfo" form={genForm} initialValues={info} labelCol={{ flex: '110px' }} className="gen-info">
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item
            label="上级菜单"
            name="menuParent"
            tooltip="x-menu.parent：所属目录的路由路径，如 system 或 system/log；留空则不生成菜单信息"
            rules={[{ pattern: /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/, message: '上级菜单路径格式不正确（如 system 或 system/log）' }]}
          >
            <Input placeholder="如 system" maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="路由地址"
            name="menuPath"
            tooltip="x-menu.path；组件路径为 <上级菜单>/<路由地址>/index"
            rules={[{ pattern: /^[A-Za-z0-9_-]+$/, message: '路由地址只含字母、数字、- 或 _' }]}
          >
            <Input placeholder="如 item" maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="菜单名称" name="menuTitle" tooltip="x-menu.title；留空时使用表描述">
            <Input placeholder="请输入菜单名称" maxLength={50} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="菜单图标" name="menuIcon">
            <Input placeholder="如 list" maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="权限前缀"
            name="permissionPrefix"
            tooltip="生成 <前缀>:list / query / add / edit / remove / export / import"
            rules={[
              { required: true, message: '请输入权限前缀' },
              { pattern: /^[A-Za-z]+(:[A-Za-z]+)*$/, message: '权限前缀只含字母，用冒号分隔（如 demo:item）' },
            ]}
          >
            <Input placeholder="如 demo:item" maxLength={100} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="接口地址"
            name="endpointBase"
            tooltip="x-endpoint.base：列表为 <接口地址>/list"
            rules={[
              { required: true, message: '请输入接口地址' },
              { pattern: /^\/(dev-api|appv2)(\/[A-Za-z0-9_-]+)+$/, message: '接口地址以 /dev-api/ 或 /appv2/ 开头（如 /dev-api/demo/item）' },
            ]}
          >
            <Input placeholder="如 /dev-api/demo/item" maxLength={200} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="表单方式" name="formMode">
            <Select
              options={[
                { value: 'dialog', label: '弹窗' },
                { value: 'page', label: '页面' },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}>
          <Form.Item label="表单宽度" name="formWidth" rules={[{ required: true, message: '请输入表单宽度' }]}>
            <InputNumber min={300} max={3000} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={6}>
          <Form.Item label="表单列数" name="formColumns">
            <Radio.Group
              options={[
                { value: 1, label: '1 列' },
                { value: 2, label: '2 列' },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="树父编码字段" name="treeParent" tooltip="树表：指向上级的整数字段（如 parentId）；普通表留空">
            <Select allowClear placeholder="请选择" options={integerNames} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="树名称字段" name="treeLabel" tooltip="树表：节点显示的字段（如 deptName）">
            <Select allowClear placeholder="请选择" options={propertyNames} />
          </Form.Item>
        </Col>
      </Row>
    </Form>
  );

  return (
    <div className="app-container gen-edit" style={{ padding: 16 }}>
      <Card>
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            { key: 'basic', label: '基本信息', forceRender: true, children: basicTab },
            {
              key: 'columns',
              label: '字段信息',
              forceRender: true,
              children: (
                <Table<GenColumn>
                  className="gen-columns"
                  rowKey="columnId"
                  size="small"
                  columns={tableColumns}
                  dataSource={columns}
                  pagination={false}
                  scroll={{ x: 1600, y: 'calc(100vh - 330px)' }}
                />
              ),
            },
            { key: 'gen', label: '生成信息', forceRender: true, children: genTab },
          ]}
        />
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <Space size={16}>
            <Button type="primary" loading={busy} onClick={submit}>
              提交
            </Button>
            <Button onClick={back}>返回</Button>
          </Space>
        </div>
      </Card>
    </div>
  );
}

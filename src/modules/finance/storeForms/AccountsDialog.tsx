import { App, Button, Form, Input, Modal, Space, Table, type TableProps } from 'antd';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useAccess } from '@/components/Access';
import { useSubmit } from '@/utils/useSubmit';

/**
 * The one "accounts of a store" dialog of 提现 (银行账户) and 发票管理 (发票抬头): the store's entries in a table,
 * 新增 / 修改 in a form dialog and 删除 behind `editPermission`, plus row buttons of the screen's own (核验通过).
 * Each field is a text box with its own check (a bank card number, a tax number) shown before the server checks again.
 */
export interface AccountField {
  name: string;
  label: string;
  maxLength: number;
  /** The message when empty; without it the field is optional. */
  required?: string;
  placeholder?: string;
  extra?: string;
  /** The problem with a typed value, or null (common/finance/checks.ts). */
  check?: (v: string) => string | null;
}

export interface AccountsDialogProps<T extends object> {
  /** 银行账户 / 发票抬头: the dialog title, the buttons say 新增… / 修改… / 删除…. */
  noun: string;
  load: () => Promise<T[]>;
  rowKey: keyof T & string;
  columns: NonNullable<TableProps<T>['columns']>;
  emptyText: string;
  editPermission: string;
  fields: AccountField[];
  valuesOf: (row: T) => Record<string, unknown>;
  /** Saves a new (editing null) or changed entry; answers the server's message. */
  save: (values: Record<string, string>, editing: T | null) => Promise<string>;
  remove: (row: T) => Promise<string>;
  removeText: (row: T) => string;
  /** More buttons in a row (核验通过); `changed` reloads the table after their call. */
  rowButtons?: (row: T, changed: (msg: string) => Promise<void>) => ReactNode;
  onClose: (changed: boolean) => void;
}

export function AccountsDialog<T extends object>(props: AccountsDialogProps<T>) {
  const { message, modal } = App.useApp();
  const { can } = useAccess();
  const mayEdit = can(props.editPermission);
  const [rows, setRows] = useState<T[] | null>(null);
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [changedOnce, setChangedOnce] = useState(false);
  const [form] = Form.useForm<Record<string, string>>();
  const { load } = props;

  const reload = useCallback(async () => setRows(await load().catch(() => [])), [load]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const changed = async (msg: string) => {
    message.success(msg);
    setChangedOnce(true);
    await reload();
  };

  const openForm = (row: T | 'new') => {
    form.resetFields();
    if (row !== 'new') form.setFieldsValue(props.valuesOf(row) as Record<string, string>);
    setEditing(row);
  };
  // `changed` toasts the message (as 删除 and 核验通过 do) and reads the table again.
  const { busy, submit } = useSubmit(form, async (v) => {
    const msg = await props.save(v, editing === 'new' ? null : editing);
    setEditing(null);
    await changed(msg);
  });

  const columns: NonNullable<TableProps<T>['columns']> = [
    ...props.columns,
    {
      title: '操作',
      key: 'op',
      width: 200,
      render: (_: unknown, row: T) => (
        <Space size={4}>
          {props.rowButtons?.(row, changed)}
          {mayEdit && (
            <>
              <Button type="link" size="small" onClick={() => openForm(row)}>
                修改
              </Button>
              <Button
                type="link"
                size="small"
                danger
                onClick={() =>
                  modal.confirm({
                    title: `删除${props.noun}`,
                    content: props.removeText(row),
                    okText: '删除',
                    okButtonProps: { danger: true },
                    cancelText: '取消',
                    onOk: async () => {
                      try {
                        await changed(await props.remove(row));
                      } catch {
                        // shown by the http layer
                      }
                    },
                  })
                }
              >
                删除
              </Button>
            </>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <Modal title={props.noun} open width={1000} footer={null} onCancel={() => props.onClose(changedOnce)}>
        {mayEdit && (
          <Button type="primary" style={{ marginBottom: 12 }} onClick={() => openForm('new')}>
            新增{props.noun}
          </Button>
        )}
        <Table<T>
          size="middle"
          rowKey={props.rowKey}
          loading={rows === null}
          dataSource={rows ?? []}
          columns={columns}
          pagination={false}
          scroll={{ x: 900 }}
          locale={{ emptyText: props.emptyText }}
        />
      </Modal>
      <Modal
        title={`${editing !== null && editing !== 'new' ? '修改' : '新增'}${props.noun}`}
        open={editing !== null}
        onOk={submit}
        onCancel={() => setEditing(null)}
        confirmLoading={busy}
        okText="保存"
        cancelText="取消"
      >
        <Form form={form} layout="vertical">
          {props.fields.map((f) => (
            <Form.Item
              key={f.name}
              label={f.label}
              name={f.name}
              extra={f.extra}
              rules={[
                ...(f.required && !f.check ? [{ required: true, whitespace: true, message: f.required }] : []),
                ...(f.check
                  ? [
                      {
                        validator: (_: unknown, v: string) => {
                          const problem = (f.check as (v: string) => string | null)(v ?? '');
                          return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
                        },
                      },
                    ]
                  : []),
              ]}
            >
              <Input maxLength={f.maxLength} placeholder={f.placeholder} />
            </Form.Item>
          ))}
        </Form>
      </Modal>
    </>
  );
}

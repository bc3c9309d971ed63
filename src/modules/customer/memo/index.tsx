import { App, Button, Card, Form, Input, Modal, Space, type TableProps } from 'antd';
import { useState } from 'react';
import { addMemo, editMemo, listMemos, type Memo, removeMemos } from '@/api/customer';
import { useAccess } from '@/components/Access';
import { useSession } from '@/session/sessionStore';
import { CustomerSelect } from '../shared/CustomerSelect';
import { formatTime } from '../shared/format';
import { PagedTable, SearchForm } from '../shared/SearchTable';
import { usePaged } from '../shared/usePaged';

type MemoQuery = { pageNum: number; pageSize: number; content?: string };

/** 备忘录 (manage/memo/index): staff notes on customers, private to the store; only the author edits or deletes. */
export default function MemoPage() {
  const { modal, message } = App.useApp();
  const { can } = useAccess();
  const { user } = useSession();
  const [search] = Form.useForm<{ content?: string }>();
  const [form] = Form.useForm<{ studentId: number; content: string }>();
  const paged = usePaged(listMemos, { pageNum: 1, pageSize: 20 } as MemoQuery);
  const { reload } = paged;
  const [dialog, setDialog] = useState<{ memo?: Memo } | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    const v = await form.validateFields();
    setSaving(true);
    try {
      const res = dialog?.memo ? await editMemo(dialog.memo.memoId, v.content) : await addMemo(v.studentId, v.content);
      message.success(res.msg);
      setDialog(null);
      await reload();
    } catch {
      // shown by the http layer
    } finally {
      setSaving(false);
    }
  };
  const remove = (m: Memo) =>
    modal.confirm({
      title: '系统提示',
      content: `是否确认删除关于"${m.studentName}"的这条备忘？`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: async () => {
        message.success((await removeMemos([m.memoId])).msg);
        await reload();
      },
    });
  const mine = (m: Memo) => user?.userId == null || m.createBy === user.userId;

  const columns: TableProps<Memo>['columns'] = [
    { title: '用户', dataIndex: 'studentName', width: 100 },
    { title: '备忘内容', dataIndex: 'content', render: (v: string) => <span style={{ whiteSpace: 'pre-wrap' }}>{v}</span> },
    { title: '记录人', dataIndex: 'createByName', width: 100 },
    { title: '记录时间', dataIndex: 'createTime', render: formatTime, width: 170 },
    {
      title: '操作',
      key: 'op',
      width: 130,
      render: (_, m) =>
        mine(m) ? (
          <Space size={0}>
            {can('manage:memo:edit') && (
              <Button
                type="link"
                size="small"
                onClick={() => {
                  form.setFieldsValue({ studentId: m.studentId, content: m.content });
                  setDialog({ memo: m });
                }}
              >
                修改
              </Button>
            )}
            {can('manage:memo:remove') && (
              <Button type="link" size="small" danger onClick={() => remove(m)}>
                删除
              </Button>
            )}
          </Space>
        ) : null,
    },
  ];

  return (
    <Card className="zy-page">
      <SearchForm
        form={search}
        paged={paged}
        toQuery={(v) => ({ content: v.content?.trim() || undefined })}
        extra={
          can('manage:memo:add') && (
            <Button
              type="primary"
              ghost
              onClick={() => {
                form.resetFields();
                setDialog({});
              }}
            >
              新增
            </Button>
          )
        }
      >
        <Form.Item label="备忘内容" name="content">
          <Input allowClear placeholder="请输入关键字" style={{ width: 200 }} />
        </Form.Item>
      </SearchForm>
      <PagedTable<Memo, MemoQuery> paged={paged} rowKey="memoId" columns={columns} />
      <Modal
        title={dialog?.memo ? '修改备忘' : '新增备忘'}
        open={dialog != null}
        onOk={save}
        confirmLoading={saving}
        onCancel={() => setDialog(null)}
        okText="确定"
        cancelText="取消"
        destroyOnHidden
      >
        <Form form={form} name="memoDialog" labelCol={{ flex: '80px' }}>
          <Form.Item label="用户" name="studentId" rules={[{ required: true, message: '请选择用户' }]}>
            {dialog?.memo ? <span>{dialog.memo.studentName}</span> : <CustomerSelect />}
          </Form.Item>
          <Form.Item label="备忘内容" name="content" rules={[{ required: true, whitespace: true, message: '备忘内容不能为空' }, { max: 1000 }]}>
            <Input.TextArea rows={5} maxLength={1000} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}

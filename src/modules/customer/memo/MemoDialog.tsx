import { Alert, App, Form, Input, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { addMemo, editMemo, listMemos, type Memo } from '@/api/customer';
import type { EngineRecordPageProps } from '@/engine/resource';
import { useSession } from '@/session/sessionStore';
import { useSubmit } from '@/utils/useSubmit';
import { CustomerSelect } from '../shared/CustomerSelect';

/**
 * 新增备忘 / 修改备忘 of 备忘录: the customer (picked by name when adding, shown when editing) and the note. Only its
 * author may change a note (the server refuses anyone else: 只能修改自己写的备忘); the dialog says so at once.
 */
export default function MemoDialog({ id, onClose }: EngineRecordPageProps) {
  const { message } = App.useApp();
  const { user } = useSession();
  const [form] = Form.useForm<{ studentId: number; content: string }>();
  const editing = id !== undefined;
  const [memo, setMemo] = useState<Memo | null>(null);

  useEffect(() => {
    if (!editing) return;
    listMemos({ pageNum: 1, pageSize: 1, memoId: Number(id) })
      .then((page) => {
        const found = page.rows[0];
        if (!found) {
          message.error('备忘不存在或无权访问');
          onClose(true);
          return;
        }
        setMemo(found);
        form.setFieldsValue({ studentId: found.studentId, content: found.content });
      })
      .catch(() => onClose(false));
  }, [editing, id, form, message, onClose]);

  const notMine = memo != null && user?.userId != null && memo.createBy !== user.userId;
  const { busy, submit } = useSubmit(form, async (v) => (memo ? await editMemo(memo.memoId, v.content) : await addMemo(v.studentId, v.content)).msg, {
    done: () => onClose(true),
  });

  return (
    <Modal
      title={editing ? '修改备忘' : '新增备忘'}
      open
      onOk={submit}
      okButtonProps={{ disabled: notMine || (editing && !memo) }}
      confirmLoading={busy}
      onCancel={() => onClose(false)}
      okText="确定"
      cancelText="取消"
      destroyOnHidden
    >
      {editing && !memo ? (
        <Spin style={{ display: 'block', padding: 24 }} />
      ) : (
        <Form form={form} name="memoDialog" labelCol={{ flex: '80px' }}>
          {notMine && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message="只能修改自己写的备忘" />}
          <Form.Item label="用户" name="studentId" rules={[{ required: true, message: '请选择用户' }]}>
            {memo ? <span>{memo.studentName}</span> : <CustomerSelect />}
          </Form.Item>
          <Form.Item label="备忘内容" name="content" rules={[{ required: true, whitespace: true, message: '备忘内容不能为空' }, { max: 1000 }]}>
            <Input.TextArea rows={5} maxLength={1000} showCount disabled={notMine} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

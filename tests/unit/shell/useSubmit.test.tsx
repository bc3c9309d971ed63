import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, Input, Modal } from 'antd';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type SubmitOptions, useSubmit } from '@/utils/useSubmit';
import { browserShims } from '../engine/helpers';
import { renderUi } from '../render';

/**
 * The OK of the console's form dialogs (src/utils/useSubmit.ts, used by the finance, customer … dialogs): nothing is
 * sent while the form is wrong or a further check fails; while the call runs the OK button is loading; a success shows
 * the server's message and runs `done` (close, refresh); a refusal runs no `done`, so the dialog stays open and may be
 * sent again.
 */

type Send = (values: { name: string }) => Promise<string> | Promise<void>;

function NameDialog({ send, options }: { send: Send; options?: SubmitOptions }) {
  const [form] = Form.useForm<{ name: string }>();
  const { busy, submit } = useSubmit(form, send, options);
  return (
    <Modal open title="新增名称" okText="确定" cancelText="取消" confirmLoading={busy} onOk={submit}>
      <Form form={form}>
        <Form.Item label="名称" name="name" rules={[{ required: true, message: '请输入名称' }]}>
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const ok = () => screen.getByRole('button', { name: /确\s*定/ });
const typeName = (name: string) => fireEvent.change(screen.getByLabelText('名称'), { target: { value: name } });

describe('useSubmit', () => {
  beforeAll(browserShims);

  it('sends nothing while a field is wrong', async () => {
    const send = vi.fn<Send>(async () => '新增成功');
    const done = vi.fn();
    renderUi(<NameDialog send={send} options={{ done }} />);
    fireEvent.click(ok());
    await screen.findByText('请输入名称');
    expect(send).not.toHaveBeenCalled();
    expect(done).not.toHaveBeenCalled();
  });

  it('sends nothing when the further check says no', async () => {
    const send = vi.fn<Send>(async () => '新增成功');
    const ready = vi.fn(() => false);
    renderUi(<NameDialog send={send} options={{ ready }} />);
    typeName('甲');
    fireEvent.click(ok());
    await waitFor(() => expect(ready).toHaveBeenCalledTimes(1));
    expect(send).not.toHaveBeenCalled();
  });

  it('is loading while the call runs, then toasts the server’s message and runs done', async () => {
    let answer: (msg: string) => void = () => undefined;
    const send = vi.fn<Send>(() => new Promise<string>((resolve) => (answer = resolve)));
    const done = vi.fn();
    renderUi(<NameDialog send={send} options={{ done }} />);
    typeName('甲');
    fireEvent.click(ok());
    await waitFor(() => expect(ok().className).toContain('ant-btn-loading'));
    expect(send).toHaveBeenCalledWith({ name: '甲' });
    expect(done).not.toHaveBeenCalled();
    answer('新增成功');
    await screen.findByText('新增成功');
    expect(done).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(ok().className).not.toContain('ant-btn-loading'));
  });

  it('keeps the dialog usable after a refusal: no done, not loading, sent again on the next OK', async () => {
    const send = vi.fn<Send>(async () => {
      throw new Error('门店余额不足');
    });
    const done = vi.fn();
    renderUi(<NameDialog send={send} options={{ done }} />);
    typeName('甲');
    fireEvent.click(ok());
    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(ok().className).not.toContain('ant-btn-loading'));
    expect(screen.getByLabelText('名称')).toHaveProperty('value', '甲');
    fireEvent.click(ok());
    await waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    expect(done).not.toHaveBeenCalled();
  });

  it('shows no toast when the call answers nothing (a QR code follows instead)', async () => {
    const send = vi.fn<Send>().mockResolvedValueOnce(undefined).mockResolvedValueOnce('已保存');
    const done = vi.fn();
    renderUi(<NameDialog send={send} options={{ done }} />);
    typeName('甲');
    fireEvent.click(ok());
    await waitFor(() => expect(done).toHaveBeenCalledTimes(1));
    // A second OK whose call answers a message: its toast is then the only one.
    fireEvent.click(ok());
    await screen.findByText('已保存');
    expect(document.querySelectorAll('.ant-message-notice')).toHaveLength(1);
  });
});

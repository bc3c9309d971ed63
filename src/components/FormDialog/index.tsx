import { Alert, Modal, Spin } from 'antd';
import type { ReactNode } from 'react';

export { useFormDialog } from './useFormDialog';

export interface FormDialogProps {
  title: string;
  width: number;
  /** Default true: record dialogs are mounted only while open. */
  open?: boolean;
  /** Saving: 确 定 spins. */
  busy: boolean;
  onOk: () => void;
  onCancel: () => void;
  /** While the record or the choices load (a spinner over the form); leave out when nothing loads. */
  loading?: boolean;
  /** Why loading or the last save failed: shown above the form until dismissed or saved again. */
  error?: string | null;
  onDismissError?: () => void;
  okDisabled?: boolean;
  children: ReactNode;
}

/**
 * The RuoYi dialog of the system screens (新增 / 修改, 选择用户, 分配数据权限): 确 定 / 取 消, not closed by the mask, its
 * content dropped when hidden; optionally a spinner while loading and the refusal of the last save above the form.
 */
export function FormDialog(props: FormDialogProps) {
  const { title, width, open = true, busy, onOk, onCancel, loading, error, onDismissError, okDisabled, children } = props;
  const body = (
    <>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} closable onClose={onDismissError} />}
      {children}
    </>
  );
  return (
    <Modal
      title={title}
      open={open}
      width={width}
      maskClosable={false}
      destroyOnHidden
      okText="确 定"
      cancelText="取 消"
      confirmLoading={busy}
      okButtonProps={okDisabled ? { disabled: true } : undefined}
      onOk={onOk}
      onCancel={onCancel}
    >
      {loading === undefined ? body : <Spin spinning={loading}>{body}</Spin>}
    </Modal>
  );
}

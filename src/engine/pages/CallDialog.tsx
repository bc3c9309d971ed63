import type { DeclaredAction } from '@common/engine/types';
import { Alert, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { RequestError, request } from '@/api/request';
import { fillBody, fillText, fillUrl } from '../declaredActions';

/**
 * A schema-declared workflow step (x-rowActions / x-toolbar kind "call", docs/schemas.md): calls the module's route
 * with the filled body through the signed http client. With `confirm` and / or `comment` it first shows one dialog —
 * the confirm text, then the comment box — whose OK button is `comment.okText` or the action's label; a refusal is
 * shown in the dialog (and toasted by the http layer), which stays open; nothing else changes. Success shows the
 * server's msg and refreshes the list. The state machine stays in the module: the console only asks.
 */

export interface PendingCall {
  action: DeclaredAction;
  /** The row of a row action. */
  record?: Record<string, unknown>;
  /** The selected keys of a toolbar action ({ids}). */
  ids: unknown[];
}

/** Sends the call; answers the server's message. Throws the http layer's RequestError on a refusal. */
export async function sendCall({ action, record, ids }: PendingCall, comment?: string): Promise<string> {
  const body = fillBody(action.body, record, ids);
  if (action.comment) body[action.comment.field] = comment ?? '';
  const env = await request({ url: fillUrl(action.url, record), method: (action.method ?? 'POST').toLowerCase(), data: body });
  return env.msg || '操作成功';
}

/** Whether the call needs the dialog first. */
export const needsDialog = (action: DeclaredAction) => Boolean(action.confirm || action.comment);

export function CallDialog({ pending, onDone }: { pending: PendingCall; onDone: (msg: string | null) => void }) {
  const { action, record } = pending;
  const comment = action.comment;
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const title = comment ? fillText(comment.title, record) : '系统提示';

  const submit = async () => {
    if (comment?.required && !text.trim()) {
      setProblem(`请输入${fillText(comment.title, record)}`);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      onDone(await sendCall(pending, text.trim()));
    } catch (err) {
      setProblem(err instanceof RequestError || err instanceof Error ? err.message : '操作失败');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={title}
      okText={comment?.okText ?? action.label}
      cancelText="取消"
      okButtonProps={{ danger: action.danger, loading: busy }}
      onOk={submit}
      onCancel={() => onDone(null)}
      destroyOnHidden
      width={comment ? 520 : 420}
    >
      {action.confirm && <Typography.Paragraph>{fillText(action.confirm, record)}</Typography.Paragraph>}
      {comment && (
        <Input.TextArea
          aria-label={fillText(comment.title, record)}
          rows={4}
          value={text}
          maxLength={comment.maxLength}
          showCount={Boolean(comment.maxLength)}
          placeholder={comment.placeholder ?? `请输入${fillText(comment.title, record)}`}
          onChange={(e) => {
            setText(e.target.value);
            if (problem) setProblem(null);
          }}
        />
      )}
      {problem && <Alert type="error" showIcon message={problem} style={{ marginTop: 12 }} />}
    </Modal>
  );
}

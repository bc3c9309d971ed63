import { App, type FormInstance } from 'antd';
import { useState } from 'react';

export interface SubmitOptions {
  /**
   * A check beyond the form's rules, made after them (a file picked, a voucher uploaded): false stops before the
   * call; it has told the user why.
   */
  ready?: () => boolean;
  /** After a success and its toast: close the dialog, refresh the list. */
  done?: () => void;
}

/**
 * The OK of a form dialog, one way across the console: validate (antd marks what is wrong; nothing is sent) → busy
 * (for the OK button's `confirmLoading`, so a second click cannot send twice) → `send` → its answer, the server's
 * message, as a success toast → `done`. A refusal is toasted by the http layer and the dialog stays open with what
 * was typed. `run` is the part after validation, for a dialog that asks a confirm in between (发送给全部用户).
 */
export function useSubmit<V>(form: FormInstance<V>, send: (values: V) => Promise<string> | Promise<void>, options: SubmitOptions = {}) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const run = async (values: V) => {
    setBusy(true);
    try {
      const msg = await send(values);
      if (msg) message.success(msg);
      options.done?.();
    } catch {
      // shown by the http layer; the dialog stays open
    } finally {
      setBusy(false);
    }
  };
  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (values === null || options.ready?.() === false) return;
    await run(values);
  };
  return { busy, submit, run };
}

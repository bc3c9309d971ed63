import type { FormInstance } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useSubmit } from '@/utils/useSubmit';

/**
 * The state of a record dialog (FormDialog). `load` runs once when it opens (the record, the choices; a failure is
 * kept as the dialog's error). OK is the console's one submit (utils/useSubmit: validate → busy → `save` → the text
 * it answers, 新增成功 / 修改成功, as a toast → close); a refusal also stays above the form as the dialog's error, so
 * the user can read it while correcting what was typed.
 */
export function useFormDialog<V>(
  form: FormInstance<V>,
  { save, onClose, load }: { save: (values: V) => Promise<string>; onClose: (saved: boolean) => void; load?: (alive: () => boolean) => Promise<void> },
) {
  const [loading, setLoading] = useState(load !== undefined);
  const [error, setError] = useState<string | null>(null);
  const loadRef = useRef(load);

  useEffect(() => {
    const run = loadRef.current;
    if (!run) return;
    let live = true;
    run(() => live)
      .catch((e: unknown) => {
        if (live) setError((e as Error).message || '加载失败');
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
  }, []);

  const { busy, submit } = useSubmit(
    form,
    async (values: V) => {
      setError(null);
      try {
        return await save(values);
      } catch (e) {
        setError((e as Error).message || '保存失败');
        throw e;
      }
    },
    { done: () => onClose(true) },
  );

  /** The FormDialog props this state drives. */
  const dialog = { busy, loading, error, onDismissError: () => setError(null), onOk: submit, onCancel: () => onClose(false) };
  return { busy, dialog };
}

import { useEffect } from 'react';
import type { PlanEditorState } from '../plan/usePlanEditor';

/**
 * What both filling boards (by major and by 院校专业组) do around their plan editor: read the plan at start and
 * whenever the page asks for a refresh (`refreshKey`, e.g. after 智能填报), read the options again on a refresh, and
 * have the browser ask before a page with unsaved edits is closed or reloaded.
 */
export function useBoardRefresh(editor: PlanEditorState, reloadRows: () => void, refreshKey: number): void {
  const loadPlan = editor.load;
  useEffect(() => {
    loadPlan();
  }, [loadPlan, refreshKey]);
  useEffect(() => {
    if (refreshKey > 0) reloadRows();
  }, [refreshKey]);
  useEffect(() => {
    if (!editor.dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [editor.dirty]);
}

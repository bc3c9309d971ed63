import type { GradientWarning } from '@common/volunteer/gradient';
import type { PlanSimulationView } from '@common/volunteer/planSimulation';
import { App } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { RequestError } from '@/api/request';
import { type ChanceRow, type PlanStatus, type PlanSummary, planInfo, savePlan, saveSort, simulatePlan, submitPlan, unsubmitPlan } from '@/api/volunteer';
import {
  addItem,
  draftKey,
  draftOfKey,
  type EditorItem,
  fromSaved,
  isDirty,
  isReorderOnly,
  moveItem,
  type PlanLimits,
  planWarnings,
  removeItem,
  setMajors,
  setObey,
  simulable,
  toSaveItems,
} from './planModel';

export interface StaleSave {
  message: string;
  currentVersion: number | null;
}

/** Wait this long after the last edit before simulating: a drag or several clicks ask once, not each time. */
export const SIMULATE_DEBOUNCE_MS = 400;

/** One simulated choice as a row shows it. */
export type SimulatedChoice = PlanSimulationView['choices'][number];

/**
 * The whole-plan simulation of the list as edited. `view` and `byLine` are of the last answer (by line, so a row keeps
 * its own figure when rows move); `pending` while a newer list waits for its answer; `message` the server's reason when
 * it cannot simulate (no rank), `error` when the call failed.
 */
export interface EditorSimulation {
  view: PlanSimulationView | null;
  byLine: ReadonlyMap<number, SimulatedChoice>;
  pending: boolean;
  message: string | null;
  error: string | null;
}

const NO_SIMULATION: EditorSimulation = { view: null, byLine: new Map(), pending: false, message: null, error: null };

/**
 * One student's plan in the editor: the list kept locally until 保存, the version last seen (sent with every
 * change), the status (a submitted or approved plan is read-only), live warnings, and what a stale save left behind.
 */
export function usePlanEditor(studentId: number, limits: PlanLimits) {
  const { message } = App.useApp();
  const [items, setItems] = useState<EditorItem[]>([]);
  const [saved, setSaved] = useState<EditorItem[]>([]);
  const [version, setVersion] = useState(0);
  const [status, setStatus] = useState<PlanStatus>('none');
  const [summary, setSummary] = useState<PlanSummary | null>(null);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState<null | 'save' | 'submit' | 'unsubmit'>(null);
  const [stale, setStale] = useState<StaleSave | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  // A save or submit the server refused for the plan's content (e.g. a line not in the catalogue, a second copy of
  // one programme): its message stays on the editor, as the server wrote it, until the next attempt.
  const [refusal, setRefusal] = useState<string | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    setLoadError(null);
    try {
      const info = await planInfo(studentId);
      const list = info.items.map((i) => fromSaved(i, limits));
      setItems(list);
      setSaved(list);
      setVersion(info.plan?.version ?? 0);
      setStatus(info.plan?.status ?? 'none');
      setSummary(info.plan);
      setStale(null);
      setRefusal(null);
    } catch (e) {
      setLoadError((e as Error).message || '志愿方案加载失败');
    } finally {
      setLoading(false);
    }
  }, [studentId, limits]);

  // The plan simulated after every edit (debounced). A newer edit aborts the older call, and an answer arriving after
  // its list changed is dropped: the figures shown are always those of the list shown, or marked as pending.
  const [simulation, setSimulation] = useState<EditorSimulation>(NO_SIMULATION);
  const [simulateAgain, setSimulateAgain] = useState(0);
  const key = draftKey(items);
  const wanted = simulable(items, limits);
  // simulateAgain (重试) is a dependency only to run the effect again.
  useEffect(() => {
    if (!wanted) {
      setSimulation(NO_SIMULATION);
      return;
    }
    const draft = draftOfKey(key);
    const abort = new AbortController();
    setSimulation((s) => ({ ...s, pending: true }));
    const timer = setTimeout(async () => {
      try {
        const { simulation: view, msg } = await simulatePlan(studentId, draft, abort.signal);
        if (abort.signal.aborted) return;
        const byLine = new Map<number, SimulatedChoice>();
        // The answer names choices by their place in the list sent; rows find theirs by line.
        const lineAt = new Map(draft.map((d) => [d.sort, d.lineId]));
        for (const c of view?.choices ?? []) {
          const lineId = lineAt.get(c.sort);
          if (lineId != null) byLine.set(lineId, c);
        }
        setSimulation({ view, byLine, pending: false, message: view ? null : msg, error: null });
      } catch (e) {
        if (abort.signal.aborted) return;
        // The last figures were of another list: not shown beside this one.
        setSimulation({ ...NO_SIMULATION, error: (e as Error).message || '整体模拟失败' });
      }
    }, SIMULATE_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [key, wanted, studentId, simulateAgain]);

  const readOnly = status === 'submitted' || status === 'approved';
  const dirty = useMemo(() => isDirty(saved, items), [saved, items]);
  const warnings: GradientWarning[] = useMemo(() => planWarnings(items, limits), [items, limits]);
  const inPlan = useMemo(() => new Set(items.map((i) => i.lineId)), [items]);

  const guard = (): boolean => {
    if (!readOnly) return true;
    message.warning(status === 'submitted' ? '志愿方案已提交审核，不能修改，如需修改请先撤回' : '志愿方案已审批通过，不能再修改');
    return false;
  };

  const add = (row: ChanceRow | EditorItem): boolean => {
    if (!guard()) return false;
    const result = addItem(items, row, limits);
    if (!result.ok) {
      message.warning(result.reason);
      return false;
    }
    setItems(result.items);
    return true;
  };

  /** Adds several (the auto-fill proposal); returns how many went in and the reasons for the others. */
  const addMany = (rows: Array<ChanceRow | EditorItem>, replace: boolean): { added: number; skipped: string[] } => {
    if (!guard()) return { added: 0, skipped: [] };
    let list: EditorItem[] = replace ? [] : items;
    const skipped: string[] = [];
    for (const row of rows) {
      const r = addItem(list, row, limits);
      if (r.ok) list = r.items;
      else skipped.push(r.reason);
    }
    setItems(list);
    return { added: list.length - (replace ? 0 : items.length), skipped };
  };

  const remove = (lineId: number) => guard() && setItems((list) => removeItem(list, lineId));
  const move = (from: number, to: number) => guard() && setItems((list) => moveItem(list, from, to));
  const obey = (of: EditorItem, value: boolean) => guard() && setItems((list) => setObey(list, of, value));
  /** The majors of a 院校专业组 entry (picked again in the group list). */
  const majors = (lineId: number, list: string[]) => guard() && setItems((all) => setMajors(all, lineId, list));
  /** Throws away local edits. */
  const revert = () => setItems(saved);

  const afterSave = (list: EditorItem[], nextVersion: number, nextStatus: PlanStatus) => {
    setItems(list);
    setSaved(list);
    setVersion(nextVersion);
    setStatus(nextStatus);
    setStale(null);
    setRefusal(null);
  };

  /**
   * After a refused save or submit (local edits stay): a stale version is remembered so the expert can reload or
   * overwrite knowingly; any other refusal is kept with the server's words.
   */
  const keepRefusal = (e: unknown) => {
    if (e instanceof RequestError && e.envelope && 'currentVersion' in e.envelope) {
      setStale({ message: e.message, currentVersion: Number(e.envelope.currentVersion) || null });
    } else if (e instanceof RequestError && e.envelope) {
      setRefusal(e.message);
    }
  };

  /** 保存: a pure reorder goes through saveSort (logged as 排序), anything else through save. */
  const save = async (asVersion = version): Promise<boolean> => {
    if (!guard()) return false;
    setBusy('save');
    setRefusal(null);
    try {
      const reorder = saved.length > 0 && isReorderOnly(saved, items) && asVersion === version;
      const { result, msg } = reorder
        ? await saveSort(
            studentId,
            asVersion,
            items.map((i) => i.lineId),
          )
        : await savePlan(studentId, asVersion, toSaveItems(items, limits));
      afterSave(
        result.items.map((i) => fromSaved(i, limits)),
        result.version,
        result.status,
      );
      setSummary((s) => ({
        ...(s ?? ({} as PlanSummary)),
        planId: result.planId,
        status: result.status,
        version: result.version,
        itemCount: result.itemCount,
      }));
      message.success(msg || '保存成功');
      return true;
    } catch (e) {
      keepRefusal(e);
      return false;
    } finally {
      setBusy(null);
    }
  };

  const submit = async (): Promise<boolean> => {
    if (dirty) {
      message.warning('志愿表有未保存的修改，请先保存再提交审核');
      return false;
    }
    setBusy('submit');
    setRefusal(null);
    try {
      const r = await submitPlan(studentId, version);
      setVersion(r.version);
      setStatus('submitted');
      setSummary((s) => (s ? { ...s, status: 'submitted', statusName: '待审核', version: r.version, submitTime: Date.now() } : s));
      message.success(r.msg || '提交成功');
      return true;
    } catch (e) {
      keepRefusal(e);
      return false;
    } finally {
      setBusy(null);
    }
  };

  const unsubmit = async (): Promise<boolean> => {
    setBusy('unsubmit');
    try {
      const r = await unsubmitPlan(studentId, version);
      setVersion(r.version);
      setStatus('draft');
      setSummary((s) => (s ? { ...s, status: 'draft', statusName: '草稿', version: r.version } : s));
      message.success(r.msg || '撤回成功');
      return true;
    } catch {
      return false;
    } finally {
      setBusy(null);
    }
  };

  return {
    items,
    saved,
    version,
    status,
    summary,
    loading,
    loadError,
    busy,
    stale,
    refusal,
    readOnly,
    dirty,
    warnings,
    inPlan,
    load,
    add,
    addMany,
    remove,
    move,
    obey,
    majors,
    revert,
    save,
    submit,
    unsubmit,
    simulation,
    /** Asks for the simulation again (after a failed call). */
    resimulate: () => setSimulateAgain((n) => n + 1),
    dismissStale: () => setStale(null),
    dismissRefusal: () => setRefusal(null),
  };
}

export type PlanEditorState = ReturnType<typeof usePlanEditor>;

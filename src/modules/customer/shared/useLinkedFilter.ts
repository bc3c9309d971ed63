import type { FormInstance } from 'antd';
import { type Dispatch, type SetStateAction, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/** What a link's query string asks of a list: the search form's fields and the list query they stand for. */
export interface LinkedFilter<F, Q> {
  form: Partial<F>;
  query: Partial<Q>;
}
export type ReadLink<F, Q> = (params: URLSearchParams) => LinkedFilter<F, Q> | undefined;

/**
 * A list opened from a link that carries its filter (the home page's to-do counts link to `?status=0`) shows
 * exactly the rows that were counted. `useLinkedFilter` reads it for the list's first query (so no unfiltered
 * answer can arrive last and win); `useApplyLinkedFilter` shows it in the search form and applies a later link to
 * the kept-alive tab.
 */
export function useLinkedFilter<F, Q>(read: ReadLink<F, Q>): LinkedFilter<F, Q> | undefined {
  const [params] = useSearchParams();
  return read(params);
}

export function useApplyLinkedFilter<F, Q extends { pageNum: number }>(
  read: ReadLink<F, Q>,
  form: FormInstance<F>,
  setQuery: Dispatch<SetStateAction<Q>>,
): void {
  const [params] = useSearchParams();
  const key = params.toString();
  const applied = useRef<string | null>(null);
  useEffect(() => {
    const first = applied.current === null;
    if (applied.current === key) return;
    applied.current = key;
    const linked = read(params);
    if (!linked) return;
    form.setFieldsValue(linked.form as Parameters<FormInstance<F>['setFieldsValue']>[0]);
    if (!first) setQuery((q) => ({ ...q, ...linked.query, pageNum: 1 })); // the first query already holds it
  }, [key]);
}

/** The common case: `?status=<n>` where n is one of the list's status values. */
export function statusFromLink<F extends { status?: number }, Q extends { status?: number }>(statuses: Record<number, string>): ReadLink<F, Q> {
  return (params) => {
    const raw = params.get('status');
    if (raw === null || !/^\d+$/.test(raw) || !(Number(raw) in statuses)) return undefined;
    const status = Number(raw);
    return { form: { status } as Partial<F>, query: { status } as Partial<Q> };
  };
}

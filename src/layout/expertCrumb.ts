import { useSyncExternalStore } from 'react';

/**
 * The 专家填报 breadcrumb (spec §2.4): a page of the expert workspace sets a path text (e.g. the student's name and
 * step); while it is set the navbar shows 专家填报 / {text}, and clicking 专家填报 goes back.
 */
let text = '';
const listeners = new Set<() => void>();

export function setExpertPathText(value: string): void {
  text = value;
  for (const l of listeners) l();
}

export function useExpertPathText(): string {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => text,
    () => '',
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';
import type { FlatRoute } from '@/router/types';
import { TAGS_STORAGE_KEY } from '@/session/forgetUser';
import { addView, delAll, delLeft, delOthers, delRight, delView, initAffix, landingAfterClose, type TagsState, type TagView } from './tagsModel';

/** Visited tabs survive a browser refresh (per browser tab, like the session); sign-out forgets them. */
export { TAGS_STORAGE_KEY };

function isTag(value: unknown): value is TagView {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v.path === 'string' && typeof v.fullPath === 'string' && typeof v.title === 'string';
}

/** The saved tabs over the pinned ones; unreadable storage gives just the pinned tabs. */
export function restoreTags(routes: readonly FlatRoute[]): TagsState {
  let state = initAffix(routes);
  try {
    const raw = sessionStorage.getItem(TAGS_STORAGE_KEY);
    const saved: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(saved)) {
      for (const tag of saved) {
        // A saved tab never pins itself: affix comes from the routes only.
        if (isTag(tag)) state = addView(state, { ...tag, affix: state.visited.some((v) => v.path === tag.path && v.affix) });
      }
    }
  } catch {
    // Corrupt or unavailable storage: start from the pinned tabs.
  }
  return state;
}

function persist(state: TagsState) {
  try {
    sessionStorage.setItem(TAGS_STORAGE_KEY, JSON.stringify(state.visited));
  } catch {
    // Storage full or disabled: tabs just do not survive a refresh.
  }
}

export type CloseAction = 'current' | 'others' | 'left' | 'right' | 'all';

export interface TagsApi {
  state: TagsState;
  add: (view: TagView) => void;
  /** Close tabs; returns where to go when the active page was closed. */
  close: (action: CloseAction, view: TagView, activePath: string) => string | undefined;
}

/** Tag bar state from the pure model, persisted in sessionStorage. */
export function useTags(routes: readonly FlatRoute[]): TagsApi {
  const [state, setState] = useState<TagsState>(() => restoreTags(routes));
  const ref = useRef(state);
  ref.current = state;

  useEffect(() => persist(state), [state]);

  const add = useCallback((view: TagView) => setState((s) => addView(s, view)), []);

  const close = useCallback((action: CloseAction, view: TagView, activePath: string) => {
    const current = ref.current;
    let next: TagsState;
    let landing: string | undefined;
    switch (action) {
      case 'current': {
        const result = delView(current, view, activePath);
        next = result.state;
        landing = result.next;
        break;
      }
      case 'others':
        next = delOthers(current, view);
        break;
      case 'left':
        next = delLeft(current, view);
        break;
      case 'right':
        next = delRight(current, view);
        break;
      default:
        next = delAll(current);
    }
    // Closing around a tab (others / left / right) lands on that tab when the active page went away (RuoYi).
    if (action === 'all') landing = landingAfterClose(next, activePath);
    else if (action !== 'current' && landingAfterClose(next, activePath)) landing = view.fullPath;
    ref.current = next;
    setState(next);
    return landing;
  }, []);

  return { state, add, close };
}

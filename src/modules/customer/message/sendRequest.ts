import { useSyncExternalStore } from 'react';

/**
 * 消息管理's 发送消息 is a toolbar callback (override.tsx); the dialog lives in the list page (MessagePage). This tiny
 * store carries the request — with the list's refresh — from one to the other.
 */
export type SendRequest = { refresh: () => void } | null;

let current: SendRequest = null;
const listeners = new Set<() => void>();

export function requestSend(request: SendRequest): void {
  current = request;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSendRequest(): SendRequest {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}

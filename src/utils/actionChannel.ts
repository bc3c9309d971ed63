import { useSyncExternalStore } from 'react';

/**
 * A one-slot channel from plain callbacks to the page that acts on them. Overrides' row and toolbar buttons
 * (src/resources, `rowActions` / `toolbar`) are callbacks outside React; what they open — a dialog, a navigation, the
 * app's confirm — lives in the module's list page. The button posts a request; the page reads it with the hook and
 * acts. One per screen or family of screens (定时任务, 菜单管理, 菜单配置, 角色管理, 用户管理, 代码生成, 消息管理; 用户列表 /
 * 回收站 / 客户资料 and the finance lists share one each, their pages answering only their own resource's requests).
 */
export interface ActionChannel<T> {
  /** Posts a request (or null once handled); the page using `use` renders with it. */
  request(action: T | null): void;
  /** The latest request, re-rendering when a new one is posted. */
  use(): T | null;
}

export function createActionChannel<T>(): ActionChannel<T> {
  let current: T | null = null;
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  };
  return {
    request(action) {
      current = action;
      for (const l of listeners) l();
    },
    use() {
      return useSyncExternalStore(
        subscribe,
        () => current,
        () => null,
      );
    },
  };
}

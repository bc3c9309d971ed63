import type { EntitySchema } from '@common/engine/types';
import { Refine } from '@refinedev/core';
import { cleanup } from '@testing-library/react';
import type { RequestHandler } from 'msw';
import { type SetupServer, setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { repeatGuard } from '@/api/repeatGuard';
import { setFeedback } from '@/api/request';
import { clearDictCache } from '@/components/DictTag';
import { createDataProvider } from '@/engine/dataProvider';
import { createResourceRegistry, ResourceRegistryContext } from '@/engine/registry';
import { accessControlProvider } from '@/providers/accessControlProvider';
import { registry, resources, schemas } from '@/resources';
import { sessionStore } from '@/session/sessionStore';
import { useRealKeys } from '../api/keys';
import { FeedbackBridge } from '../feedback';
import { renderUi } from '../render';

/** jsdom lacks what antd's responsive grid, tables and popups ask the browser for. */
export function browserShims(): void {
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      value: (query: string) => ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }),
    });
  }
  if (!('ResizeObserver' in window)) {
    class RO {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.defineProperty(window, 'ResizeObserver', { writable: true, value: RO });
  }
}

export const testProvider = (list: EntitySchema[] = schemas) => createDataProvider((name) => list.find((s) => s.$id === name));

/**
 * Renders inside antd (zh_CN, App context with the http layer's toasts, no motion: ../render.tsx) and Refine with the
 * engine data provider and the access-control provider, the console's resource registry provided to the engine.
 */
export function renderWithRefine(ui: ReactNode, extra: EntitySchema[] = []) {
  // Schemas of the test itself (fixtures) join the app's: the provider finds them and the registry knows them.
  const list = extra.length ? [...schemas, ...extra] : schemas;
  const reg = extra.length ? createResourceRegistry(list) : registry;
  return renderUi(
    <>
      <FeedbackBridge />
      <ResourceRegistryContext value={reg}>
        <Refine
          dataProvider={testProvider(list)}
          resources={extra.length ? reg.refineResources() : resources}
          accessControlProvider={accessControlProvider}
          options={{ disableTelemetry: true }}
        >
          {ui}
        </Refine>
      </ResourceRegistryContext>
    </>,
  );
}

/**
 * The setup of a test file that renders engine pages against a mock server: real keys (the signed http client), an
 * unhandled call fails the test, and every test starts from a clean console — no repeat-guard memory, dictionary
 * cache, stored settings (column choices), toasts or signed-in user from the test before. `handlers` runs before each
 * test: it resets the file's own records and answers the routes the test calls.
 */
export function useEngineServer(handlers: () => RequestHandler[]): SetupServer {
  const server = setupServer();
  const keys = useRealKeys();
  beforeAll(() => {
    browserShims();
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(() => {
    server.close();
    keys.cleanup();
  });
  beforeEach(() => {
    repeatGuard.reset();
    clearDictCache();
    localStorage.clear();
    setFeedback(null);
    server.use(...handlers());
  });
  afterEach(() => {
    cleanup();
    server.resetHandlers();
    sessionStore.reset();
    vi.clearAllMocks();
  });
  return server;
}

/** Signs in a user holding exactly these permissions. */
export const signedIn = (permissions: string[]) => sessionStore.set({ roles: ['operator'], permissions, loaded: true });

/** Two rows of 参数设置 (sys_config) as the server lists them: one built-in (Y), one not (N). */
export const configRows = [
  {
    configId: 1,
    configName: '主框架页-默认皮肤样式名称',
    configKey: 'sys.index.skinName',
    configValue: 'skin-blue',
    configType: 'Y',
    remark: '蓝色 skin-blue',
    createTime: 1767225600000,
    version: 1,
  },
  {
    configId: 2,
    configName: '用户管理-账号初始密码',
    configKey: 'sys.user.initPassword',
    configValue: '123456',
    configType: 'N',
    remark: null,
    createTime: 1767312000000,
    version: 1,
  },
];

import type { EntitySchema } from '@common/engine/types';
import { Refine } from '@refinedev/core';
import type { ReactNode } from 'react';
import { createDataProvider } from '@/engine/dataProvider';
import { createResourceRegistry, ResourceRegistryContext } from '@/engine/registry';
import { accessControlProvider } from '@/providers/accessControlProvider';
import { registry, resources, schemas } from '@/resources';
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

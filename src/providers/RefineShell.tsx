import { Refine } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { type ReactNode, use, useMemo } from 'react';
import { createDataProvider } from '@/engine/dataProvider';
import { ResourceRegistryContext } from '@/engine/registry';
import { accessControlProvider } from '@/providers/accessControlProvider';
import { authProvider } from '@/providers/authProvider';
import { registry } from '@/resources';
import { loadRuntimeResources } from '@/resources/runtime';

/**
 * Refine (router + auth + access, the schema engine's data provider and the resources of src/resources/) around the
 * signed-in console only, with the resource registry the engine's pages look other resources up in. Loaded lazily
 * by the routes that need it, so the sign-in page downloads neither Refine and its query cache nor the resource
 * definitions. A new sign-in mounts a fresh shell, so no cached answer outlives its user. The shell first adds the
 * schemas the server has and this build lacks (runtime.ts), so their menu entries open the generic screens.
 *
 * Answers stay fresh for 30 s: returning to an open tab within that time shows the kept page without refetching;
 * after it the kept page stays on screen and refreshes in the background. Writes invalidate the resource's queries
 * at once, whatever their age.
 */
const reactQuery = { clientConfig: { defaultOptions: { queries: { staleTime: 30_000 } } } };

/** The one data provider over the registry: a resource added at runtime is served like a built one. */
const dataProvider = createDataProvider((name) => registry.get(name)?.schema);

export default function RefineShell({ children }: { children: ReactNode }) {
  use(loadRuntimeResources());
  const resources = useMemo(() => registry.refineResources(), []);
  return (
    <ResourceRegistryContext value={registry}>
      <Refine
        routerProvider={routerProvider}
        dataProvider={dataProvider}
        resources={resources}
        authProvider={authProvider}
        accessControlProvider={accessControlProvider}
        options={{ disableTelemetry: true, reactQuery }}
      >
        {children}
      </Refine>
    </ResourceRegistryContext>
  );
}

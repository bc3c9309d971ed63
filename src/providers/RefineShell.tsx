import { Refine } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import type { ReactNode } from 'react';
import { dataProvider } from '@/engine/provider';
import { accessControlProvider } from '@/providers/accessControlProvider';
import { authProvider } from '@/providers/authProvider';
import { resources } from '../../resources.config';

/**
 * Refine (router + auth + access, the schema engine's data provider and resources.config.ts) around the signed-in
 * console only. Loaded lazily by the routes that need it, so the sign-in page downloads neither Refine and its query
 * cache nor the resource definitions. A new sign-in mounts a fresh shell, so no cached answer outlives its user.
 *
 * Answers stay fresh for 30 s: returning to an open tab within that time shows the kept page without refetching;
 * after it the kept page stays on screen and refreshes in the background. Writes invalidate the resource's queries
 * at once, whatever their age.
 */
const reactQuery = { clientConfig: { defaultOptions: { queries: { staleTime: 30_000 } } } };

export default function RefineShell({ children }: { children: ReactNode }) {
  return (
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
  );
}

import { getRuntimeSchemas } from '@/api/engine';
import { getToken } from '@/utils/auth';
import { registry } from './index';

/**
 * Resources for the schema files the server has and this build did not (issue 26: a new schema file needs no console
 * build): asked once per session (token), started beside the session's own calls (loadSession) so the console's
 * shell, which waits for it, rarely waits at all; added to the registry with the generic pages. A failed call leaves
 * the built resources alone.
 */
const asked = new Map<string, Promise<void>>();

export function loadRuntimeResources(session: string = getToken() ?? ''): Promise<void> {
  let pending = asked.get(session);
  if (!pending) {
    pending = getRuntimeSchemas(registry.all().map((d) => d.name))
      .then((schemas) => {
        registry.add(schemas);
      })
      .catch(() => {
        asked.delete(session); // asked again at the next mount
      });
    asked.set(session, pending);
  }
  return pending;
}

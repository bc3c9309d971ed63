import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { demoSignInWorks } from '../db/seed/index.js';

/** Cookie holding the publish time of the console build being served (spec §4 stale-version reload). */
export const PUBLISH_COOKIE = 'publishtime';

/** The served build's publish time (dist/publish-time.txt, written by vite build), or '' without a build. */
export function readPublishTime(staticDir: string): string {
  try {
    return fs.readFileSync(path.join(staticDir, 'publish-time.txt'), 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * The console's halves of the key pairs, delivered at start rather than baked into the bundle, so rotating keys
 * needs no rebuild (docs/protocol.md). Loaded by index.html before the app.
 */
export async function clientConfigRoutes(app: FastifyInstance) {
  const publishTime = readPublishTime(app.config.staticDir);
  // demoAccounts: the sign-in page shows the demo account only while it works (server/db/seed/index.ts). Never in a
  // server without demo data (production); decided on the first page load, not at start (one password check).
  let demoAccounts: Promise<boolean> | undefined;
  app.get('/app-config.js', async (_request, reply) => {
    demoAccounts ??= app.config.seed ? demoSignInWorks(app.db.kysely).catch(() => false) : Promise.resolve(false);
    const config = {
      requestPublicKey: app.keys.requestPublicPem,
      responsePrivateKey: app.keys.responsePrivatePem,
      keyId: app.keys.fingerprint,
      serverPublishTime: publishTime,
      demoAccounts: await demoAccounts,
    };
    reply.header('cache-control', 'no-store').type('application/javascript; charset=utf-8');
    return `window.__APP_CONFIG__ = ${JSON.stringify(config)};\n`;
  });
}

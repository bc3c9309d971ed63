import type { FastifyInstance } from 'fastify';
import { ok } from '../http/envelope.js';

/** Console release history for the version dialog (spec §4) and the home system drawer (§7.8 systermUpdateList). */
export async function versionRoutes(app: FastifyInstance) {
  const db = app.db.kysely;
  app.post('/dev-api/api/index/systermUpdateList', { config: { permission: 'login' } }, async () => {
    const rows = await db.selectFrom('sysVersionLog').selectAll().orderBy('publishTime', 'desc').limit(100).execute();
    return ok(rows);
  });
}

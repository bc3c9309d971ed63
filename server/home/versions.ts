import type { FastifyInstance } from 'fastify';
import type { VersionInfo } from '../../common/home/versions.js';
import { ok } from '../http/envelope.js';

/** How many releases the history answers (newest first). */
export const VERSION_HISTORY_LIMIT = 100;

/**
 * Version info (spec §3: appId, user, toolsign, publish_time, lasttag, domainName, historylog of user, time, filenums,
 * tag, log) for the version dialog, /log and the home update-log drawer (§7.8 systermUpdateList). The releases are
 * maintained in 版本管理 (schemas/home/sys_version_log.json); the newest release is the current one.
 */
export async function versionRoutes(app: FastifyInstance) {
  const db = app.db.kysely;
  app.route({
    method: ['GET', 'POST'],
    url: '/dev-api/api/index/systermUpdateList',
    config: { permission: 'login', write: false },
    handler: async () => {
      const rows = await db
        .selectFrom('sysVersionLog')
        .select(['logId', 'appId', 'releaseTag', 'userName', 'signTool', 'publishTime', 'domain', 'changedFiles', 'log'])
        .orderBy('publishTime', 'desc')
        .orderBy('logId', 'desc')
        .limit(VERSION_HISTORY_LIMIT)
        .execute();
      const current = rows[0];
      return ok<VersionInfo>({
        appId: current?.appId ?? '',
        user: current?.userName ?? '',
        toolsign: current?.signTool ?? '',
        publish_time: current ? Number(current.publishTime) : null,
        lasttag: current?.releaseTag ?? '',
        domainName: current?.domain ?? '',
        historylog: rows.map((r) => ({
          id: r.logId,
          user: r.userName,
          time: Number(r.publishTime),
          filenums: Number(r.changedFiles),
          tag: r.releaseTag,
          log: r.log,
        })),
      });
    },
  });
}

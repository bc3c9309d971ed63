import type { FastifyInstance } from 'fastify';
import { BusinessType, recordOperation } from '../engine/operlog.js';
import { engineDb } from '../engine/store.js';
import { ApiError, ok } from '../http/envelope.js';
import { bodySchema, getSettings, readSettings, SETTING_GROUP_NAMES, SETTING_GROUPS, saveSettings, settingsOptions } from './settings.js';

/**
 * 注册设置 / 测评设置 / 审核配置 (docs/architecture.md "Settings"): GET and PUT /dev-api/system/settings/{group} for
 * each group, with the group's own read and edit permissions. Saves go to the operation log (also when refused).
 * The public GET /appv2/api/index/registerConfig gives the register page what it must know before anyone signs in.
 */
export async function settingsRoutes(app: FastifyInstance) {
  const db = app.db.kysely;
  const logDb = engineDb(app.db);

  for (const group of SETTING_GROUP_NAMES) {
    const def = SETTING_GROUPS[group];
    const url = `/dev-api/system/settings/${group}`;

    app.get(url, { config: { permission: def.permissions.read, write: false } }, async () => {
      const state = await readSettings(db, group);
      return ok(state, '操作成功', { options: await settingsOptions(db, group) });
    });

    app.put<{ Body: Record<string, unknown> & { version: number } }>(
      url,
      { config: { permission: def.permissions.edit, write: true }, schema: { body: bodySchema(group) } },
      async (request) => {
        const started = Date.now();
        const { version, ...values } = request.body;
        const entry = { title: def.title, businessType: BusinessType.UPDATE, method: `settings.save(${group})`, param: request.body };
        try {
          const state = await saveSettings(db, group, values, version, request.auth!.userName);
          const answer = ok(state, '保存成功');
          await recordOperation(logDb, request, {
            ...entry,
            result: { code: answer.code, msg: answer.msg, version: state.version },
            status: 0,
            costTime: Date.now() - started,
          });
          return answer;
        } catch (error) {
          const result = error instanceof ApiError ? { code: error.code, msg: error.message } : undefined;
          await recordOperation(logDb, request, { ...entry, result, status: 1, errorMsg: (error as Error).message, costTime: Date.now() - started });
          throw error;
        }
      },
    );
  }

  app.get('/appv2/api/index/registerConfig', { config: { permission: 'public', write: false } }, async () => {
    const s = await getSettings(db, 'register');
    return ok({ registerEnabled: s.registerEnabled, smsRequired: s.smsRequired, agreement: s.agreement });
  });
}

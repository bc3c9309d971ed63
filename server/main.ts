import { loadConfig, startRefusals, startupSummary } from './config.js';
import { payStartRefusal } from './finance/pay/index.js';
import { admissionAsOf } from './volunteer/asOf.js';

// Settings a production server must not run with are refused before anything is opened or written (docs/production.md).
const refusals = [...startRefusals(process.env), payStartRefusal(process.env)].filter((r): r is string => r !== null);
if (refusals.length > 0) {
  for (const r of refusals) console.error(`无法启动：${r}`);
  process.exit(1);
}

// A variable with a bad value or a driver missing a setting (SMS_DRIVER=aliyun without its key …) stops the start, named.
const config = (() => {
  try {
    return loadConfig();
  } catch (err) {
    console.error(`无法启动：${(err as Error).message}`);
    process.exit(1);
  }
})();
// ADMISSION_AS_OF=<year> (server/volunteer/asOf.ts): refuse to start on a value that is not a year.
admissionAsOf();
// Loaded after the checks above, so a refused start answers at once instead of after loading every module.
const { buildApp } = await import('./app.js');
const { activeProviders } = await import('./finance/pay/index.js');
const { readPublishTime } = await import('./http/clientConfig.js');
const app = await buildApp({ config });
try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  app.log.error(err);
  process.exit(1);
}

let payProviders: string[] = [];
try {
  payProviders = activeProviders().enabled();
} catch {
  // payment routes not registered: nothing is offered
}
const users = Number(
  (
    await app.db.kysely
      .selectFrom('sysUser')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('delFlag', '=', '0')
      .executeTakeFirst()
  )?.n ?? 0,
);
for (const line of startupSummary(config, { payProviders, users, consoleBuild: readPublishTime(config.staticDir) })) {
  app.log.info(`启动概要 · ${line}`);
}
if (users === 0) {
  app.log.warn(
    '还没有任何账号，控制台无法登录：请在服务器上运行 npm run admin:create 创建第一个管理员（数据库与本服务相同：同样的 DATA_DIR 或 DATABASE_URL）。',
  );
}
const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
app.log.info(`控制台已启动：http://${shown}:${config.port}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    app.close().then(() => process.exit(0));
  });
}

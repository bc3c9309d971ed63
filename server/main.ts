import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { admissionAsOf } from './volunteer/asOf.js';

const config = loadConfig();
// ADMISSION_AS_OF=<year> (server/volunteer/asOf.ts): refuse to start on a value that is not a year.
admissionAsOf();
const app = await buildApp({ config });
try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`控制台已启动：http://localhost:${config.port}  （数据目录 ${config.dataDir}，数据库 ${config.databaseUrl ? 'PostgreSQL' : 'SQLite'}）`);
} catch (err) {
  app.log.error(err);
  process.exit(1);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    app.close().then(() => process.exit(0));
  });
}

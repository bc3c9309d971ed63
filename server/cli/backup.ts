import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.js';
import { BackupError, backupTo, defaultBackupFile, describeManifest, formatBytes } from '../db/backup.js';

/**
 * `npm run backup`: one .zip archive of the database, DATA_DIR/keys and DATA_DIR/uploads (docs/backup.md). Safe while
 * the server runs: SQLite is copied with its online backup API, PostgreSQL with pg_dump.
 */

const USAGE = `用法：npm run backup [-- 选项]

把数据库（DATA_DIR 下的 SQLite，或 DATABASE_URL 指向的 PostgreSQL）、密钥目录 keys 和上传目录 uploads
备份为一个 .zip 文件。服务运行中也可以备份。

选项：
  --out 文件          备份文件路径（须以 .zip 结尾，不会覆盖已有文件）；默认 DATA_DIR/backups/backup-<时间>.zip
  --no-uploads        不含上传文件（只备份数据库和密钥）
  -h, --help          显示本说明

恢复：npm run restore -- 备份文件（说明见 docs/backup.md）`;

export interface BackupArgs {
  out?: string;
  uploads: boolean;
  help: boolean;
}

/** The command line, or a message saying what is wrong with it. */
export function parseBackupArgs(argv: string[]): BackupArgs | string {
  const args: BackupArgs = { uploads: true, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') args.help = true;
    else if (arg === '--no-uploads') args.uploads = false;
    else if (arg === '--out' || arg.startsWith('--out=')) {
      const value = arg === '--out' ? argv[++i] : arg.slice('--out='.length);
      if (!value) return '--out 后面需要一个文件路径';
      args.out = value;
    } else return `不认识的选项“${arg}”（用 --help 查看用法）`;
  }
  return args;
}

async function main(argv: string[]): Promise<number> {
  const args = parseBackupArgs(argv);
  if (typeof args === 'string') {
    console.error(`${args}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  try {
    const config = loadConfig(process.env, { logger: false });
    const out = args.out ? path.resolve(args.out) : defaultBackupFile(config.dataDir);
    console.log(`正在备份${config.databaseUrl ? ' PostgreSQL 数据库（pg_dump）' : ` SQLite 数据库（${config.dataDir}）`} …`);
    const done = await backupTo(config, out, { uploads: args.uploads });
    console.log(`备份完成：${done.file}（${formatBytes(done.bytes)}，用时 ${(done.ms / 1000).toFixed(1)} 秒）`);
    console.log(`内容：${describeManifest(done.manifest)}`);
    console.log('备份含完整数据库与密钥，请存放在安全的位置（建议另外复制到其他机器）。恢复方法：npm run restore -- 备份文件');
    return 0;
  } catch (err) {
    console.error(`备份失败：${err instanceof BackupError ? err.message : (err as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}

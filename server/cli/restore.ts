import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.js';
import { BackupError, checkArchive, describeManifest, restoreFrom } from '../db/backup.js';

/**
 * `npm run restore -- FILE`: puts an archive of `npm run backup` (or of the 系统备份 job) back into DATA_DIR and the
 * database (docs/backup.md). Nothing is changed until every file has been checked against the archive's manifest.
 */

const USAGE = `用法：npm run restore -- 备份文件 [选项]

把 npm run backup 或定时任务「系统备份」生成的 .zip 恢复到 DATA_DIR（PostgreSQL 备份还会恢复到
DATABASE_URL / DATABASE_SCHEMA 指定的数据库）。恢复前须停止所有使用该数据目录或数据库的服务进程。

先校验每个文件的 SHA-256，全部一致才开始恢复；来自更新程序版本的备份会被拒绝（请先升级程序）。

选项：
  --force             数据目录（或 PostgreSQL schema）中已有数据时仍然恢复：原有内容移到数据目录中的
                      before-restore-<时间> 文件夹（PostgreSQL 的原 schema 改名保留），不会删除
  --check             只校验备份文件是否完整，不恢复
  -h, --help          显示本说明`;

export interface RestoreArgs {
  file?: string;
  force: boolean;
  check: boolean;
  help: boolean;
}

/** The command line, or a message saying what is wrong with it. */
export function parseRestoreArgs(argv: string[]): RestoreArgs | string {
  const args: RestoreArgs = { force: false, check: false, help: false };
  for (const arg of argv) {
    if (arg === '-h' || arg === '--help') args.help = true;
    else if (arg === '--force') args.force = true;
    else if (arg === '--check') args.check = true;
    else if (arg.startsWith('-')) return `不认识的选项“${arg}”（用 --help 查看用法）`;
    else if (args.file) return `只能恢复一个备份文件（多出了“${arg}”）`;
    else args.file = arg;
  }
  if (!args.help && !args.file) return '请指定要恢复的备份文件，例如 npm run restore -- data/backups/backup-20250101-023000.zip';
  return args;
}

async function main(argv: string[]): Promise<number> {
  const args = parseRestoreArgs(argv);
  if (typeof args === 'string') {
    console.error(`${args}\n\n${USAGE}`);
    return 2;
  }
  if (args.help || !args.file) {
    console.log(USAGE);
    return 0;
  }
  try {
    if (args.check) {
      const manifest = await checkArchive(args.file);
      console.log(`备份文件完整：每个文件的 SHA-256 均与清单一致。\n内容：${describeManifest(manifest)}`);
      return 0;
    }
    const config = loadConfig(process.env, { logger: false });
    const done = await restoreFrom(config, args.file, { force: args.force, log: (line) => console.log(line) });
    if (done.asideDir) console.log(`原数据目录中的内容已移到 ${done.asideDir}（确认恢复无误后可以删除）。`);
    if (done.asideSchema)
      console.log(`原 PostgreSQL schema 已改名为 ${done.asideSchema}（确认恢复无误后可执行 DROP SCHEMA ${done.asideSchema} CASCADE 删除）。`);
    if (done.keptUploads) console.log('这份备份不含上传文件：保留了原来的上传目录 uploads。');
    else if (done.manifest.uploads === 's3') console.log('上传文件在对象存储中，不在备份内：请确认对象存储中的文件仍在。');
    console.log(`恢复完成：数据目录 ${done.dataDir}。`);
    console.log('下一步：启动服务（npm start）；备份来自较旧的版本时，启动时会自动执行尚未应用的数据库迁移。');
    return 0;
  } catch (err) {
    console.error(`恢复失败：${err instanceof BackupError ? err.message : (err as Error).message}`);
    return 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.js';
import { rotateRsaKeys } from '../security/keys.js';
import {
  fileStamp,
  keyId,
  keysDir,
  loadSecretRing,
  parseFileStamp,
  readSecretFile,
  retiredDir,
  rotateSecret,
  SECRETS,
  type SecretName,
  writeDurably,
} from '../security/secretFiles.js';

/**
 * `npm run keys:rotate [-- options]`: rotates only the keys it is told to (the RSA pairs by default), and keeps every
 * old key in DATA_DIR/keys/retired/ so what was made with it still works (server/security/secretFiles.ts). Processes
 * read the keys when they start: every process sharing DATA_DIR/keys must be restarted afterwards.
 *
 * Installations that ran the earlier version (it moved the whole keys/ folder to keys.bak-<time> and so lost
 * card.key) get their old card keys back with --adopt-backups.
 */

type Target = 'rsa' | SecretName;
const TARGETS: Target[] = ['rsa', 'card', 'upload', 'preview', 'pay-sandbox'];

const USAGE = `用法：npm run keys:rotate [-- 选项]

轮换 DATA_DIR/keys/ 中的密钥。不带选项时只轮换 RSA 密钥对。
旧密钥不会删除：原文件复制到 DATA_DIR/keys/retired/<名称>-<时间>（权限 0600），用旧密钥做出的数据继续可用。

选项：
  --rsa             RSA 密钥对（request-*.pem、response-*.pem）：已打开的控制台刷新页面后使用新密钥，无需重新登录
  --card            卡密密钥（card.key）：新卡使用新密钥；已发出的卡仍按原密钥激活，发卡记录仍可下载
  --upload          上传凭证密钥（upload-token.key）：已发出的凭证在有效期（10 分钟）内仍可使用
  --preview         草稿预览链接密钥（preview-token.key）：已发出的链接在有效期（10 分钟）内仍可打开
  --pay-sandbox     模拟支付签名密钥（pay-sandbox.key）
  --all             以上全部
  --only 名称,名称  只轮换列出的项（rsa、card、upload、preview、pay-sandbox），如 --only card,upload
  --adopt-backups   找回旧版轮换丢失的卡密密钥：把 DATA_DIR/keys.bak-<时间>/card.key 收为旧密钥，
                    使当时已发出、尚未激活的卡恢复可用（可单独使用，也可与上面的选项一起使用）
  -h, --help        显示本说明

轮换后请重启共用这个 DATA_DIR 的每一个服务进程：新密钥在进程重启后才生效。`;

export interface RotateOptions {
  targets: Target[];
  adoptBackups: boolean;
  help: boolean;
}

/** The command line, or a message saying what is wrong with it. */
export function parseArgs(argv: string[]): RotateOptions | string {
  const targets = new Set<Target>();
  let adoptBackups = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') help = true;
    else if (arg === '--all') for (const t of TARGETS) targets.add(t);
    else if (arg === '--adopt-backups') adoptBackups = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const list = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
      if (!list) return '--only 后面需要列出要轮换的项，如 --only card,upload';
      for (const name of list.split(',').map((n) => n.trim())) {
        if (!TARGETS.includes(name as Target)) return `--only 中的“${name}”不是可轮换的项；可选：${TARGETS.join('、')}`;
        targets.add(name as Target);
      }
    } else if (arg.startsWith('--') && TARGETS.includes(arg.slice(2) as Target)) targets.add(arg.slice(2) as Target);
    else return `不认识的选项“${arg}”`;
  }
  // No key named: the RSA pairs (the command's meaning before it took options), unless only adopting.
  if (!targets.size && !adoptBackups) targets.add('rsa');
  return { targets: TARGETS.filter((t) => targets.has(t)), adoptBackups, help };
}

/** card.key files of keys.bak-<time> folders (left by the earlier rotation) that the card keyring does not hold yet. */
function lostCardKeys(dataDir: string, log: (line: string) => void): Array<{ file: string; retiredAt: number; id: string }> {
  const ring = loadSecretRing(dataDir, 'card');
  const known = new Set([ring.current.id, ...ring.retired.map((k) => k.id)]);
  const found: Array<{ file: string; retiredAt: number; id: string }> = [];
  for (const entry of fs.readdirSync(dataDir)) {
    const m = /^keys\.bak-(.+)$/.exec(entry);
    const retiredAt = m ? parseFileStamp(m[1]) : null;
    const file = path.join(dataDir, entry, SECRETS.card.file);
    if (retiredAt == null || !fs.existsSync(file)) continue;
    let id: string;
    try {
      id = keyId(readSecretFile(file));
    } catch {
      log(`已跳过 ${file}：内容不是有效的密钥。`);
      continue;
    }
    if (known.has(id)) continue;
    known.add(id);
    found.push({ file, retiredAt, id });
  }
  return found;
}

export function rotateKeys(dataDir: string, options: RotateOptions, now = Date.now(), log: (line: string) => void = console.log): void {
  const dir = keysDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  // One rotation at a time: two at once could retire each other's fresh keys.
  const lock = path.join(dir, '.rotate.lock');
  try {
    fs.writeFileSync(lock, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new Error(`另一个密钥轮换正在进行（${lock}）。请等它结束；若确认没有在进行，删除该文件后重试`);
  }
  try {
    // A damaged key file stops the run before anything changes (its message says what to do).
    for (const target of options.targets) {
      const file = target === 'rsa' ? null : path.join(dir, SECRETS[target].file);
      if (file && fs.existsSync(file)) readSecretFile(file);
    }
    for (const target of options.targets) {
      if (target === 'rsa') {
        const { retired, fingerprint } = rotateRsaKeys(dataDir, now);
        log(
          `已轮换 RSA 密钥对（新指纹 ${fingerprint}）。${retired.length ? `旧密钥已保存到 ${retiredDir(dataDir)}/。` : ''}已打开的控制台刷新页面后使用新密钥，无需重新登录。`,
        );
      } else {
        const spec = SECRETS[target];
        const { retired } = rotateSecret(dataDir, target, now);
        log(`已轮换${spec.label}（${spec.file}）：${spec.effect}。${retired ? `旧密钥已保存为 ${retired}。` : ''}`);
      }
    }
    const lost = lostCardKeys(dataDir, log);
    if (options.adoptBackups) {
      for (const k of lost) {
        // Named by the time its folder was set aside (when it stopped making cards); a later rotation may have used
        // that name already, so the adoption time is the fallback.
        let target = path.join(retiredDir(dataDir), `card-${fileStamp(k.retiredAt)}.key`);
        if (fs.existsSync(target)) target = path.join(retiredDir(dataDir), `card-${fileStamp(now)}.key`);
        fs.mkdirSync(retiredDir(dataDir), { recursive: true, mode: 0o700 });
        writeDurably(target, fs.readFileSync(k.file));
        log(`已找回卡密密钥 ${k.file}（编号 ${k.id}），保存为 ${target}：用它发出的卡重启后可再次激活和下载。`);
      }
      if (!lost.length) log('没有需要找回的卡密密钥（keys.bak-* 中的 card.key 都已在使用中，或不存在）。');
    } else if (lost.length) {
      log(
        `提示：发现 ${lost.length} 个旧版轮换留下、尚未找回的卡密密钥（${lost.map((k) => k.file).join('、')}）。用它们发出的卡目前无法激活；运行 npm run keys:rotate -- --adopt-backups 可找回。`,
      );
    }
  } finally {
    fs.rmSync(lock, { force: true });
  }
  log(`请重启共用 ${dir} 的每一个服务进程：新密钥在进程重启后才生效。`);
}

function main(): void {
  const options = parseArgs(process.argv.slice(2));
  if (typeof options === 'string') {
    console.error(`${options}\n\n${USAGE}`);
    process.exitCode = 1;
    return;
  }
  if (options.help) {
    console.log(USAGE);
    return;
  }
  try {
    rotateKeys(loadConfig().dataDir, options);
  } catch (error) {
    console.error(`密钥轮换失败：${(error as Error).message}`);
    process.exitCode = 1;
  }
}

// Run as a command (npm run keys:rotate), not when a test imports the functions above.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

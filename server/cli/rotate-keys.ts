import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { generateKeys, loadOrCreateKeys } from '../security/keys.js';

/** `npm run keys:rotate`: replace both key pairs in DATA_DIR/keys (the old set is kept as keys.bak-<time>). */
const { dataDir } = loadConfig();
const dir = path.join(dataDir, 'keys');
if (fs.existsSync(dir)) {
  const backup = `${dir}.bak-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  fs.renameSync(dir, backup);
  console.log(`旧密钥已备份到 ${backup}`);
}
generateKeys(dir);
console.log(`已生成新密钥（指纹 ${loadOrCreateKeys(dataDir).fingerprint}）。请重启服务；已打开的控制台刷新页面后生效。`);

import path from 'node:path';
import readline from 'node:readline/promises';
import { fileURLToPath } from 'node:url';
import { describeAddress, loadConfig, type ServerConfig } from '../config.js';
import { type Db, openDatabase } from '../db/connection.js';
import { migrate } from '../db/migrate.js';
import { ROOT_DEPT_ID, seed } from '../db/seed/index.js';
import { SUPER_ROLE } from '../security/access.js';
import { hashPassword } from '../security/password.js';
import { newUserRow } from '../system/newUserRow.js';
import { ILLEGAL_PASSWORD, ILLEGAL_PASSWORD_MESSAGE } from '../system/userHooks.js';

/**
 * `npm run admin:create`: creates an administrator (the built-in role 超级管理员) in the database the server uses —
 * DATA_DIR's SQLite file, or DATABASE_URL (+ DATABASE_SCHEMA). A new database is migrated and given the system
 * essentials first (never demo data). Asks for the account and a hidden password in a terminal; or takes
 * `-- --username NAME --password PASS` (the password is then visible in the shell history and process list).
 */

const USAGE = `用法：npm run admin:create [-- 选项]

在服务器使用的数据库（DATA_DIR 下的 SQLite，或 DATABASE_URL 指向的 PostgreSQL）中创建一个超级管理员账号。
数据库是新的时，先建表并写入系统必需的角色和菜单（不写演示数据）。
不带选项时在终端中按提示输入账号和密码（密码不显示）。

选项：
  --username 账号     2 到 20 位字母、数字或下划线
  --password 密码     6 到 20 个字符，不能包含 < > " ' \\ |（写在命令行里的密码会留在命令历史中，建议按提示输入）
  --nickname 名称     显示的姓名，默认“系统管理员”
  -h, --help          显示本说明`;

export interface AdminOptions {
  username?: string;
  password?: string;
  nickName?: string;
  help: boolean;
}

/** The command line, or a message saying what is wrong with it. */
export function parseArgs(argv: string[]): AdminOptions | string {
  const options: AdminOptions = { help: false };
  const names: Record<string, 'username' | 'password' | 'nickName'> = { '--username': 'username', '--password': 'password', '--nickname': 'nickName' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h' || arg === '--help') {
      options.help = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const key = names[flag];
    if (!key) return `不认识的选项“${arg}”（用 --help 查看用法）`;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) return `${flag} 后面需要一个值`;
    options[key] = value;
  }
  return options;
}

/** The product's rules for an account name (schemas/system/sys_user.json userName). */
export function usernameProblem(name: string): string | null {
  if (!name) return '账号不能为空';
  if (!/^[A-Za-z0-9_]{2,20}$/.test(name)) return `账号“${name}”不符合要求：只能是 2 到 20 位字母、数字或下划线`;
  return null;
}

/** The product's rules for a password (修改密码 / 重置密码: 6 to 20 characters, RuoYi's refused characters). */
export function passwordProblem(password: string): string | null {
  if (!password) return '密码不能为空';
  if ([...password].length < 6 || [...password].length > 20) return '密码长度必须在 6 到 20 个字符之间';
  if (ILLEGAL_PASSWORD.test(password)) return `密码${ILLEGAL_PASSWORD_MESSAGE}`;
  return null;
}

/** A refusal the operator can act on: printed as is, exit code 1. */
export class AdminCreateError extends Error {}

/** Creates the administrator; the database must be migrated and hold the essentials (roles). Answers the user id. */
export async function createAdmin(db: Db, input: { username: string; password: string; nickName?: string }, now = Date.now()): Promise<number> {
  const problem = usernameProblem(input.username) ?? passwordProblem(input.password);
  if (problem) throw new AdminCreateError(problem);
  const nickName = input.nickName?.trim() || '系统管理员';
  if (nickName.length > 30) throw new AdminCreateError('显示名称不能超过 30 个字符');
  const hash = await hashPassword(input.password);
  try {
    return await db.kysely.transaction().execute(async (trx) => {
      // Deleted accounts keep their name (the column is unique), so they count as taken too.
      const taken = await trx.selectFrom('sysUser').select(['userId', 'delFlag']).where('userName', '=', input.username).executeTakeFirst();
      if (taken) {
        throw new AdminCreateError(
          taken.delFlag === '0'
            ? `账号“${input.username}”已存在，没有做任何修改。请换一个账号名；忘记该账号密码时，请其他管理员在“用户管理”中重置密码。`
            : `账号“${input.username}”曾被使用（已删除的账号仍占用其名称），请换一个账号名。`,
        );
      }
      const role = await trx.selectFrom('sysRole').select('roleId').where('roleKey', '=', SUPER_ROLE).where('delFlag', '=', '0').executeTakeFirst();
      if (!role)
        throw new AdminCreateError('数据库中没有内置的超级管理员角色（admin），无法创建管理员。请确认 DATA_DIR 或 DATABASE_URL 指向的是本系统的数据库。');
      const dept = await trx.selectFrom('sysDept').select('deptId').where('deptId', '=', ROOT_DEPT_ID).where('delFlag', '=', '0').executeTakeFirst();
      // Headquarters (store 1, migration 012): an administrator there sees every store.
      const hq = await trx.selectFrom('cusStore').select('storeId').where('storeId', '=', 1).executeTakeFirst();
      const user = await trx
        .insertInto('sysUser')
        .values(
          newUserRow({
            deptId: dept ? ROOT_DEPT_ID : null,
            userName: input.username,
            nickName,
            password: hash,
            diagnosis: 1,
            createTime: now,
            remark: '由 npm run admin:create 创建',
            storeId: hq ? 1 : null,
          }),
        )
        .returning('userId')
        .executeTakeFirstOrThrow();
      const userId = Number(user.userId);
      await trx
        .insertInto('sysUserRole')
        .values({ userId, roleId: Number(role.roleId) })
        .execute();
      return userId;
    });
  } catch (err) {
    // Two runs with the same name at once: the unique column decides, the loser is told like the check above.
    const code = (err as { code?: string }).code;
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') throw new AdminCreateError(`账号“${input.username}”已存在，没有做任何修改。请换一个账号名。`);
    throw err;
  }
}

/** Where the data is, for the messages (no password). */
export function databaseLabel(config: ServerConfig): string {
  return config.databaseUrl
    ? `PostgreSQL ${describeAddress(config.databaseUrl)}${config.databaseSchema ? `（schema ${config.databaseSchema}）` : ''}`
    : `SQLite ${path.join(config.dataDir, 'zhiyuan.sqlite')}`;
}

class Cancelled extends Error {}

/** Reads a line without echoing it (raw mode); Ctrl-C cancels. */
function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stdout.write(question);
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') {
          finish();
          resolve(value);
          return;
        }
        if (ch === '\u0003' || ch === '\u0004') {
          finish();
          reject(new Cancelled());
          return;
        }
        if (ch === '\u007f' || ch === '\b') value = [...value].slice(0, -1).join('');
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.on('data', onData);
  });
}

async function askVisible(question: string): Promise<string> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  // Ctrl-C at this prompt closes the interface: a cancel, not a crash.
  const cancelled = new Promise<never>((_, reject) => rl.once('SIGINT', () => reject(new Cancelled())));
  try {
    return (await Promise.race([rl.question(question), cancelled])).trim();
  } finally {
    rl.close();
  }
}

/** The account and password: from the options, else asked in the terminal (the password twice, hidden). */
async function collect(options: AdminOptions): Promise<{ username: string; password: string; nickName?: string }> {
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  if ((options.username === undefined || options.password === undefined) && !interactive) {
    throw new AdminCreateError(
      '缺少账号或密码：请在终端中直接运行 npm run admin:create 按提示输入，或使用 npm run admin:create -- --username 账号 --password 密码',
    );
  }
  let username = options.username?.trim();
  if (username === undefined) {
    for (;;) {
      username = await askVisible('管理员账号（2 到 20 位字母、数字或下划线）：');
      const problem = usernameProblem(username);
      if (!problem) break;
      console.error(problem);
    }
  }
  const usernameBad = usernameProblem(username);
  if (usernameBad) throw new AdminCreateError(usernameBad);
  let password = options.password;
  if (password === undefined) {
    for (;;) {
      password = await askHidden('密码（6 到 20 个字符，输入时不显示）：');
      const problem = passwordProblem(password);
      if (problem) {
        console.error(problem);
        continue;
      }
      if ((await askHidden('再次输入密码：')) === password) break;
      console.error('两次输入的密码不一致，请重新输入');
    }
  }
  return { username, password, nickName: options.nickName };
}

async function main(argv: string[]): Promise<number> {
  const options = parseArgs(argv);
  if (typeof options === 'string') {
    console.error(`${options}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig(process.env, { logger: false });
  let db: Db | undefined;
  try {
    // Checked before the database is opened, so a mistyped option changes nothing.
    const input = await collect(options);
    const problem = usernameProblem(input.username) ?? passwordProblem(input.password);
    if (problem) throw new AdminCreateError(problem);
    db = await openDatabase(config);
    await migrate(db);
    await seed(db, { demo: false }); // roles and menus of a new database; an installed one is left as it is
    const userId = await createAdmin(db, input);
    console.log(`已创建管理员“${input.username}”（超级管理员，用户编号 ${userId}）。`);
    console.log(`数据库：${databaseLabel(config)}`);
    console.log('现在可以用这个账号登录控制台；服务器已在运行时无需重启。');
    return 0;
  } catch (err) {
    if (err instanceof Cancelled) {
      console.error('已取消，没有创建任何账号。');
      return 130;
    }
    if (err instanceof AdminCreateError) {
      console.error(`创建管理员失败：${err.message}`);
      return 1;
    }
    console.error(`创建管理员失败：无法使用数据库 ${databaseLabel(config)}（${(err as Error).message}）。请检查 DATA_DIR 或 DATABASE_URL 后重试。`);
    return 1;
  } finally {
    await db?.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}

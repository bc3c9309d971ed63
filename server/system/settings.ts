import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import type { Kysely } from 'kysely';
import type { RegisterSettings, SettingGroup, SettingsOf, SettingsState } from '../../common/system/settings.js';
import type { Database } from '../db/types.js';
import { sanitizeRichText } from '../engine/validate.js';
import { fail } from '../http/envelope.js';
import { validationMessage } from '../http/validation.js';

/**
 * Key-value settings of the system screens (migration 008, table sys_setting; docs/architecture.md "Settings"):
 * 注册设置 (register), 测评设置 (evaluation) and 审核配置 (audit). Each group has typed defaults, a JSON schema with
 * Chinese field titles (the PUT route validates its body with it, and so does saveSettings) and business rules.
 * A group's rows share one version; a save must name the version it read, else it is refused as stale.
 * 开放注册 is the platform's register_enabled column (sys_platform), the one switch /dev-api/register reads.
 */

export interface SettingTable {
  settingGroup: string;
  settingKey: string;
  settingValue: string;
  updateBy: string | null;
  updateTime: number;
  version: number;
}

declare module '../db/types.js' {
  interface Database {
    sysSetting: SettingTable;
  }
}

export const RICH_TEXT_MAX = 20000;

interface GroupDefinition<G extends SettingGroup> {
  /** Screen title (also the operation log title). */
  title: string;
  defaults: SettingsOf[G];
  /** JSON schema of the values (every key required, nothing else allowed). */
  properties: Record<keyof SettingsOf[G] & string, Record<string, unknown>>;
  /** Keys held elsewhere than sys_setting. */
  external?: ReadonlyArray<keyof SettingsOf[G] & string>;
  /** Rich-text keys: sanitised before they are stored. */
  richText?: ReadonlyArray<keyof SettingsOf[G] & string>;
  /** Permissions to read and to save. */
  permissions: { read: string; edit: string };
}

const roleKeySchema = { type: 'string', minLength: 1, maxLength: 100 };

export const SETTING_GROUPS: { [G in SettingGroup]: GroupDefinition<G> } = {
  register: {
    title: '注册设置',
    defaults: {
      registerEnabled: true,
      defaultRoleKey: 'common',
      smsRequired: false,
      agreement: '',
    },
    properties: {
      registerEnabled: { type: 'boolean', title: '开放注册' },
      defaultRoleKey: { ...roleKeySchema, title: '注册默认角色' },
      smsRequired: { type: 'boolean', title: '需要短信验证码' },
      agreement: { type: 'string', title: '注册协议', maxLength: RICH_TEXT_MAX },
    },
    external: ['registerEnabled'],
    richText: ['agreement'],
    permissions: { read: 'system:register:list', edit: 'system:register:edit' },
  },
  evaluation: {
    title: '测评设置',
    defaults: {
      evaluationEnabled: true,
      maxAttempts: 3,
      resultValidDays: 180,
      reportNote: '<p>本测评结果基于学生作答生成，仅作为选科、专业与志愿填报的参考，最终方案请结合高考成绩、位次与专家意见综合判断。</p>',
    },
    properties: {
      evaluationEnabled: { type: 'boolean', title: '测评开放' },
      maxAttempts: { type: 'integer', title: '每人测评次数上限', minimum: 0, maximum: 99 },
      resultValidDays: { type: 'integer', title: '测评结果有效期(天)', minimum: 1, maximum: 3650 },
      reportNote: { type: 'string', title: '报告说明', maxLength: RICH_TEXT_MAX },
    },
    richText: ['reportNote'],
    permissions: { read: 'system:evaluation:list', edit: 'system:evaluation:edit' },
  },
  audit: {
    title: '审核配置',
    defaults: {
      submitNeedsReview: true,
      reviewerRoleKeys: ['leader'],
      reviewTimeoutHours: 24,
      rejectNeedsComment: true,
    },
    properties: {
      submitNeedsReview: { type: 'boolean', title: '志愿提交需要审核' },
      reviewerRoleKeys: { type: 'array', title: '审核人角色', items: { ...roleKeySchema, title: '审核人角色' }, maxItems: 20 },
      reviewTimeoutHours: { type: 'integer', title: '审核超时提醒(小时)', minimum: 0, maximum: 720 },
      rejectNeedsComment: { type: 'boolean', title: '驳回需填写意见' },
    },
    permissions: { read: 'system:audit:list', edit: 'system:audit:edit' },
  },
};

export const SETTING_GROUP_NAMES = Object.keys(SETTING_GROUPS) as SettingGroup[];

/** JSON schema of a group's values (what the PUT body holds besides the version). */
export function valuesSchema(group: SettingGroup) {
  const def = SETTING_GROUPS[group];
  return {
    type: 'object',
    title: def.title,
    required: Object.keys(def.properties),
    properties: def.properties,
    additionalProperties: false,
  } as const;
}

/** JSON schema of the PUT body: the values plus the version that was read. */
export function bodySchema(group: SettingGroup) {
  const values = valuesSchema(group);
  return {
    ...values,
    required: [...values.required, 'version'],
    properties: { ...values.properties, version: { type: 'integer', title: '版本', minimum: 0 } },
  };
}

const ajv = new Ajv2020({ allErrors: false, verbose: true, strict: false });
const validators = new Map<SettingGroup, ValidateFunction>();
function validatorOf(group: SettingGroup): ValidateFunction {
  let v = validators.get(group);
  if (!v) {
    v = ajv.compile(valuesSchema(group));
    validators.set(group, v);
  }
  return v;
}

export const isSettingGroup = (name: string): name is SettingGroup => (SETTING_GROUP_NAMES as string[]).includes(name);

export const STALE_SETTINGS = '设置已在别处被修改，请刷新后再保存（未保存本次修改）';

type Db = Kysely<Database>;

/** Role keys a setting may name: active, not deleted roles. */
async function activeRoles(db: Db): Promise<Array<{ roleKey: string; roleName: string }>> {
  return db
    .selectFrom('sysRole')
    .select(['roleKey', 'roleName'])
    .where('status', '=', '0')
    .where('delFlag', '=', '0')
    .orderBy('roleSort')
    .orderBy('roleId')
    .execute();
}

/** The stored values of a group over its defaults (a key stored with a value of the wrong shape falls back too). */
export async function readSettings<G extends SettingGroup>(db: Db, group: G): Promise<SettingsState<G>> {
  const def = SETTING_GROUPS[group] as unknown as GroupDefinition<G>;
  const rows = await db.selectFrom('sysSetting').selectAll().where('settingGroup', '=', group).execute();
  const values = { ...def.defaults } as Record<string, unknown>;
  let version = 0;
  let updateBy: string | null = null;
  let updateTime: number | null = null;
  for (const row of rows) {
    version = Math.max(version, Number(row.version));
    if (updateTime === null || Number(row.updateTime) > updateTime) {
      updateTime = Number(row.updateTime);
      updateBy = row.updateBy;
    }
    if (!(row.settingKey in def.properties) || def.external?.includes(row.settingKey as never)) continue;
    try {
      const value = JSON.parse(row.settingValue) as unknown;
      const probe = { ...values, [row.settingKey]: value };
      if (validatorOf(group)(probe)) values[row.settingKey] = value;
    } catch {
      // Unreadable JSON: the default stays.
    }
  }
  if (group === 'register') {
    const platform = await db.selectFrom('sysPlatform').select('registerEnabled').where('id', '=', 1).executeTakeFirst();
    values.registerEnabled = Boolean(platform?.registerEnabled);
  }
  return { group, values: values as unknown as SettingsOf[G], version, updateBy, updateTime };
}

/** The current values of a group (for the code that obeys them: registration, later the review flow). */
export async function getSettings<G extends SettingGroup>(db: Db, group: G): Promise<SettingsOf[G]> {
  return (await readSettings(db, group)).values;
}

/** Choices the screens need: the roles a role field may name. */
export async function settingsOptions(db: Db, group: SettingGroup): Promise<Record<string, unknown>> {
  if (group === 'evaluation') return {};
  return { roles: await activeRoles(db) };
}

/**
 * Checks a group's values: the JSON schema (a Chinese message naming the field), then the business rules.
 * Answers the values to store (rich text sanitised, role lists without repeats).
 */
export async function validateSettings<G extends SettingGroup>(db: Db, group: G, input: unknown): Promise<SettingsOf[G]> {
  const validate = validatorOf(group);
  if (!validate(input)) throw fail(validationMessage((validate.errors ?? []) as unknown as FastifySchemaValidationError[]), 400);
  const def = SETTING_GROUPS[group] as unknown as GroupDefinition<G>;
  const values = { ...(input as Record<string, unknown>) };
  for (const key of def.richText ?? []) values[key] = sanitizeRichText(String(values[key] ?? '')).trim();
  const roles = new Map((await activeRoles(db)).map((r) => [r.roleKey, r.roleName]));
  if (group === 'register') {
    const key = String(values.defaultRoleKey).trim();
    if (key === 'admin') throw fail('注册默认角色不能是超级管理员');
    if (!roles.has(key)) throw fail(`注册默认角色"${key}"不存在或已停用`);
    values.defaultRoleKey = key;
  }
  if (group === 'audit') {
    const keys = [...new Set((values.reviewerRoleKeys as string[]).map((k) => k.trim()))];
    for (const key of keys) if (!roles.has(key)) throw fail(`审核人角色"${key}"不存在或已停用`);
    if (values.submitNeedsReview && keys.length === 0) throw fail('开启志愿提交审核时，请至少选择一个审核人角色');
    values.reviewerRoleKeys = keys;
  }
  return values as unknown as SettingsOf[G];
}

/**
 * Saves a whole group: validated, then every key written with version + 1 — only where the stored version is still
 * the one the caller read (a concurrent save makes the write touch fewer rows and the whole save is refused).
 */
export async function saveSettings<G extends SettingGroup>(
  db: Db,
  group: G,
  input: unknown,
  expectedVersion: number,
  userName: string,
): Promise<SettingsState<G>> {
  const values = await validateSettings(db, group, input);
  const def = SETTING_GROUPS[group] as unknown as GroupDefinition<G>;
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('sysSetting')
      .select((eb) => eb.fn.max('version').as('version'))
      .where('settingGroup', '=', group)
      .executeTakeFirst();
    if (Number(current?.version ?? 0) !== expectedVersion) throw fail(STALE_SETTINGS);
    const next = expectedVersion + 1;
    for (const key of Object.keys(def.properties)) {
      if (def.external?.includes(key as never)) continue;
      const settingValue = JSON.stringify((values as unknown as Record<string, unknown>)[key]);
      const res = await trx
        .insertInto('sysSetting')
        .values({ settingGroup: group, settingKey: key, settingValue, updateBy: userName, updateTime: now, version: next })
        .onConflict((oc) =>
          oc
            .columns(['settingGroup', 'settingKey'])
            .doUpdateSet({ settingValue, updateBy: userName, updateTime: now, version: next })
            .where('sysSetting.version', '=', expectedVersion),
        )
        .executeTakeFirst();
      if (Number(res.numInsertedOrUpdatedRows ?? 0) !== 1) throw fail(STALE_SETTINGS);
    }
    if (group === 'register') {
      const open = (values as unknown as RegisterSettings).registerEnabled ? 1 : 0;
      await trx.updateTable('sysPlatform').set({ registerEnabled: open, updateTime: now }).where('id', '=', 1).execute();
    }
  });
  return readSettings(db, group);
}

import { request } from './request';

/** 平台设置 (system/platform): every stored field of the platform row (GET/PUT /dev-api/system/platform). */
export interface PlatformSettings {
  id: number;
  title: string;
  expiredate: string;
  favicon: string | null;
  watermark: string | null;
  h5addr: string | null;
  logo: string | null;
  smalllogo: string | null;
  qrUrl: string | null;
  kfPhone: string | null;
  pv: number;
  registerNum: number;
  wxapp: string | null;
  appdown: string | null;
  gwaddr: string | null;
  appId: string | null;
  storeId: number;
  toolboxaddr: string | null;
  tipsTitle: string | null;
  tips: string | null;
  gddesc: string | null;
  registerEnabled: number;
  updateTime: number | null;
}

/** What PUT /dev-api/system/platform accepts (counters, store id and the register switch are not edited here). */
export type PlatformEdit = Pick<
  PlatformSettings,
  | 'title'
  | 'expiredate'
  | 'favicon'
  | 'watermark'
  | 'h5addr'
  | 'logo'
  | 'smalllogo'
  | 'qrUrl'
  | 'kfPhone'
  | 'wxapp'
  | 'appdown'
  | 'gwaddr'
  | 'appId'
  | 'toolboxaddr'
  | 'tipsTitle'
  | 'tips'
  | 'gddesc'
>;

export async function getPlatformSettings(): Promise<PlatformSettings> {
  const env = await request<PlatformSettings>({ url: '/dev-api/system/platform', method: 'get' });
  return env.data as PlatformSettings;
}

/** Saves the platform row; silent: the screen shows the server's message next to the field it names. */
export async function savePlatformSettings(body: PlatformEdit): Promise<string> {
  const env = await request({ url: '/dev-api/system/platform', method: 'put', data: body, options: { silent: true } });
  return env.msg;
}

/** The settings groups of 注册设置 / 测评设置 / 审核配置 (server/services/settings.ts). */
export type SettingGroup = 'register' | 'evaluation' | 'audit';
export type SettingValue = string | number | boolean | string[];
export type SettingValues = Record<string, SettingValue>;

export interface RoleChoice {
  roleKey: string;
  roleName: string;
}

export interface SettingsState {
  group: SettingGroup;
  values: SettingValues;
  /** 0 while nothing was ever saved. */
  version: number;
  updateBy: string | null;
  updateTime: number | null;
  /** Choices of the role fields. */
  roles: RoleChoice[];
}

export async function getSettings(group: SettingGroup): Promise<SettingsState> {
  const env = await request<Omit<SettingsState, 'roles'>>({ url: `/dev-api/system/settings/${group}`, method: 'get' });
  const options = (env.options ?? {}) as { roles?: RoleChoice[] };
  return { ...(env.data as Omit<SettingsState, 'roles'>), roles: options.roles ?? [] };
}

/** Saves a whole group with the version it was read at; resolves with the stored state. Silent: the screen shows why. */
export async function saveSettings(group: SettingGroup, values: SettingValues, version: number): Promise<Omit<SettingsState, 'roles'>> {
  const env = await request<Omit<SettingsState, 'roles'>>({
    url: `/dev-api/system/settings/${group}`,
    method: 'put',
    data: { ...values, version },
    options: { silent: true },
  });
  return env.data as Omit<SettingsState, 'roles'>;
}

/** Public: what the register page must know before anyone signs in. */
export interface RegisterConfig {
  registerEnabled: boolean;
  smsRequired: boolean;
  agreement: string;
}

export async function getRegisterConfig(): Promise<RegisterConfig> {
  const env = await request<RegisterConfig>({
    url: '/appv2/api/index/registerConfig',
    method: 'get',
    options: { isToken: false, repeatSubmit: false, silent: true },
  });
  return env.data as RegisterConfig;
}

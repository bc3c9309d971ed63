import type { PlatformEdit, PlatformSettings } from '@common/system/platform';
import type { SettingGroup, SettingsState } from '@common/system/settings';
import { request } from './request';

export async function getPlatformSettings(): Promise<PlatformSettings> {
  const env = await request<PlatformSettings>({ url: '/dev-api/system/platform', method: 'get' });
  return env.data as PlatformSettings;
}

/** Saves the platform row; silent: the screen shows the server's message next to the field it names. */
export async function savePlatformSettings(body: PlatformEdit): Promise<string> {
  const env = await request({ url: '/dev-api/system/platform', method: 'put', data: body, options: { silent: true } });
  return env.msg;
}

export type SettingValue = string | number | boolean | string[];
export type SettingValues = Record<string, SettingValue>;

export interface RoleChoice {
  roleKey: string;
  roleName: string;
}

/** A group as the settings screen edits it: any group's values, with the choices of its role fields. */
export type SettingsView = Omit<SettingsState<SettingGroup>, 'values'> & {
  values: SettingValues;
  /** Choices of the role fields. */
  roles: RoleChoice[];
};

export async function getSettings(group: SettingGroup): Promise<SettingsView> {
  const env = await request<Omit<SettingsView, 'roles'>>({ url: `/dev-api/system/settings/${group}`, method: 'get' });
  const options = (env.options ?? {}) as { roles?: RoleChoice[] };
  return { ...(env.data as Omit<SettingsView, 'roles'>), roles: options.roles ?? [] };
}

/** Saves a whole group with the version it was read at; resolves with the stored state. Silent: the screen shows why. */
export async function saveSettings(group: SettingGroup, values: SettingValues, version: number): Promise<Omit<SettingsView, 'roles'>> {
  const env = await request<Omit<SettingsView, 'roles'>>({
    url: `/dev-api/system/settings/${group}`,
    method: 'put',
    data: { ...values, version },
    options: { silent: true },
  });
  return env.data as Omit<SettingsView, 'roles'>;
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

/**
 * The console's halves of the API key pairs (docs/protocol.md). The server writes them into /app-config.js at start,
 * so rotating keys needs no rebuild; index.html loads that script before the app.
 */
export interface AppConfig {
  requestPublicKey: string;
  responsePrivateKey: string;
  keyId: string;
  serverPublishTime: string;
  /** The server's demo accounts sign in (demo data on, admin / admin123 unchanged): the sign-in page may name them. */
  demoAccounts?: boolean;
}

const MISSING = '缺少接口密钥配置（window.__APP_CONFIG__），请确认服务端已提供 /app-config.js 后刷新页面';

let override: AppConfig | null = null;

function isAppConfig(value: unknown): value is AppConfig {
  if (!value || typeof value !== 'object') return false;
  const c = value as Record<string, unknown>;
  return typeof c.requestPublicKey === 'string' && c.requestPublicKey !== '' && typeof c.responsePrivateKey === 'string' && c.responsePrivateKey !== '';
}

export function getAppConfig(): AppConfig {
  if (override) return override;
  // Read without a global Window augmentation so this module does not fight other declarations of the same name.
  const fromPage = typeof window === 'undefined' ? undefined : (window as Window & { __APP_CONFIG__?: unknown }).__APP_CONFIG__;
  if (!isAppConfig(fromPage)) throw new Error(MISSING);
  return fromPage;
}

/** Tests (and tools) set the keys directly instead of loading /app-config.js. */
export function setAppConfig(c: AppConfig): void {
  override = c;
}

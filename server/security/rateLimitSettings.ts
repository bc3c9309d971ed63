// The rate-limit settings as the environment gives them, apart from rateLimits.ts: config.ts reads them at start, and
// rateLimits.ts (which takes the whole ServerConfig) would otherwise import config.ts and be imported by it.

/** The limits of the public endpoints (docs/security.md, "Rate limits"); 0 turns one off (benchmarks only). */
export interface RateLimitSettings {
  /** RATE_LOGIN_PER_MINUTE: sign-in requests from one address per minute. */
  loginPerMinute: number;
  /** RATE_LOGIN_PER_HOUR: sign-in requests from one address per hour, whatever the accounts (password spraying). */
  loginPerHour: number;
  /** RATE_SMS_PER_NUMBER_HOUR: SMS codes asked for one mobile number per hour (besides the 60 s resend gap). */
  smsPerNumberHour: number;
  /** RATE_SMS_PER_ADDRESS_HOUR: SMS codes asked from one address per hour, whatever the numbers. */
  smsPerAddressHour: number;
  /** RATE_REGISTER_PER_HOUR: self-registrations from one address per hour. */
  registerPerHour: number;
  /** RATE_PAGES_PER_MINUTE: requests from one address per minute to the public pages (/site/…, /share/…). */
  pagesPerMinute: number;
}

export const RATE_LIMIT_DEFAULTS: RateLimitSettings = {
  loginPerMinute: 20,
  loginPerHour: 100,
  smsPerNumberHour: 5,
  smsPerAddressHour: 20,
  registerPerHour: 10,
  pagesPerMinute: 300,
};

const ENV_NAMES: Record<keyof RateLimitSettings, string> = {
  loginPerMinute: 'RATE_LOGIN_PER_MINUTE',
  loginPerHour: 'RATE_LOGIN_PER_HOUR',
  smsPerNumberHour: 'RATE_SMS_PER_NUMBER_HOUR',
  smsPerAddressHour: 'RATE_SMS_PER_ADDRESS_HOUR',
  registerPerHour: 'RATE_REGISTER_PER_HOUR',
  pagesPerMinute: 'RATE_PAGES_PER_MINUTE',
};

/** The limits set in the environment; a value that is not a whole number ≥ 0 stops the start (a typo must not lift a limit). */
export function rateLimitsFromEnv(env: NodeJS.ProcessEnv): Partial<RateLimitSettings> {
  const out: Partial<RateLimitSettings> = {};
  for (const [key, name] of Object.entries(ENV_NAMES) as [keyof RateLimitSettings, string][]) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    if (!/^\d+$/.test(raw)) throw new Error(`${name} 取值无效：${raw}（应为不小于 0 的整数，0 表示不限制）`);
    out[key] = Number(raw);
  }
  return out;
}

// The SMS settings as the environment gives them, apart from the drivers: config.ts reads them at start and must not
// load the providers' SDKs to do so (docs/configuration.md, "SMS").

/** SMS_DRIVER=log: no SMS leaves the server; codes are written to its log (development and demos). */
export interface LogSmsConfig {
  driver: 'log';
}

/** SMS_DRIVER=aliyun: 阿里云短信服务 (Dysmsapi SendSms). */
export interface AliyunSmsConfig {
  driver: 'aliyun';
  accessKeyId: string;
  accessKeySecret: string;
  /** 短信签名 as approved in the Aliyun console, e.g. 智远教育. */
  signName: string;
  /** 模板 CODE of an approved verification-code template, e.g. SMS_123456789. */
  templateCode: string;
  /** The template's variable that receives the code: TemplateParam is {"<codeParam>":"123456"}. */
  codeParam: string;
  /** Where the SDK sends to; unset: the SDK's own endpoint (dysmsapi.aliyuncs.com over HTTPS). */
  endpoint?: ProviderEndpoint;
}

/** SMS_DRIVER=tencent: 腾讯云短信 (SendSms, API 2021-01-11). */
export interface TencentSmsConfig {
  driver: 'tencent';
  secretId: string;
  secretKey: string;
  /** SmsSdkAppId of the SMS application, e.g. 1400000000. */
  sdkAppId: string;
  signName: string;
  /** 模板 ID of an approved verification-code template. */
  templateId: string;
  /** The template's positional parameters in order, `{code}` standing for the code: ['{code}', '5'] for "{1}…{2}分钟". */
  templateParams: string[];
  region: string;
  endpoint?: ProviderEndpoint;
}

export type SmsConfig = LogSmsConfig | AliyunSmsConfig | TencentSmsConfig;
export type SmsDriverName = SmsConfig['driver'];

/** An endpoint override (tests point the SDKs at a local fake): the SDKs take the protocol and the host apart. */
export interface ProviderEndpoint {
  protocol: 'http' | 'https';
  /** host or host:port */
  host: string;
}

const DRIVERS: SmsDriverName[] = ['log', 'aliyun', 'tencent'];

/** The placeholder of the code in SMS_TENCENT_TEMPLATE_PARAMS. */
export const CODE_PLACEHOLDER = '{code}';

/**
 * Reads SMS_DRIVER and the settings of the chosen provider. A bad value or a missing setting throws a Chinese message
 * naming the variable, so the server does not start half-configured: a driver that cannot send would only be noticed
 * when a customer waits for a code that never comes.
 */
export function smsConfigFromEnv(env: NodeJS.ProcessEnv): SmsConfig {
  const driver = (env.SMS_DRIVER ?? '').trim().toLowerCase() || 'log';
  if (!DRIVERS.includes(driver as SmsDriverName)) {
    throw new Error(`SMS_DRIVER 取值无效：${env.SMS_DRIVER}（可选 log、aliyun、tencent）`);
  }
  if (driver === 'aliyun') {
    const v = required(env, 'aliyun', '阿里云短信', [
      'SMS_ALIYUN_ACCESS_KEY_ID',
      'SMS_ALIYUN_ACCESS_KEY_SECRET',
      'SMS_ALIYUN_SIGN_NAME',
      'SMS_ALIYUN_TEMPLATE_CODE',
    ]);
    const codeParam = env.SMS_ALIYUN_CODE_PARAM?.trim() || 'code';
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(codeParam)) {
      throw new Error(`SMS_ALIYUN_CODE_PARAM 取值无效：${codeParam}（应为短信模板中验证码变量的名字，如 code，即模板里的 \${code}）`);
    }
    return {
      driver: 'aliyun',
      accessKeyId: v.SMS_ALIYUN_ACCESS_KEY_ID,
      accessKeySecret: v.SMS_ALIYUN_ACCESS_KEY_SECRET,
      signName: v.SMS_ALIYUN_SIGN_NAME,
      templateCode: v.SMS_ALIYUN_TEMPLATE_CODE,
      codeParam,
      endpoint: endpointFrom(env, 'SMS_ALIYUN_ENDPOINT', 'https://dysmsapi.aliyuncs.com'),
    };
  }
  if (driver === 'tencent') {
    const v = required(env, 'tencent', '腾讯云短信', [
      'SMS_TENCENT_SECRET_ID',
      'SMS_TENCENT_SECRET_KEY',
      'SMS_TENCENT_SDK_APP_ID',
      'SMS_TENCENT_SIGN_NAME',
      'SMS_TENCENT_TEMPLATE_ID',
    ]);
    if (!/^\d+$/.test(v.SMS_TENCENT_SDK_APP_ID)) {
      throw new Error(`SMS_TENCENT_SDK_APP_ID 取值无效：${v.SMS_TENCENT_SDK_APP_ID}（应为短信应用的 SdkAppId，一串数字，如 1400000000）`);
    }
    if (!/^\d+$/.test(v.SMS_TENCENT_TEMPLATE_ID)) {
      throw new Error(`SMS_TENCENT_TEMPLATE_ID 取值无效：${v.SMS_TENCENT_TEMPLATE_ID}（应为审核通过的正文模板 ID，一串数字）`);
    }
    const templateParams = (env.SMS_TENCENT_TEMPLATE_PARAMS?.trim() || CODE_PLACEHOLDER).split(',').map((p) => p.trim());
    if (!templateParams.includes(CODE_PLACEHOLDER) || templateParams.some((p) => p === '')) {
      throw new Error(
        `SMS_TENCENT_TEMPLATE_PARAMS 取值无效：${env.SMS_TENCENT_TEMPLATE_PARAMS}（按模板变量 {1}、{2}… 的顺序用逗号分隔，其中一项为 {code}，如 {code},5）`,
      );
    }
    const region = env.SMS_TENCENT_REGION?.trim() || 'ap-guangzhou';
    if (!/^[a-z]+(-[a-z]+)+$/.test(region)) throw new Error(`SMS_TENCENT_REGION 取值无效：${region}（如 ap-guangzhou、ap-beijing、ap-nanjing）`);
    return {
      driver: 'tencent',
      secretId: v.SMS_TENCENT_SECRET_ID,
      secretKey: v.SMS_TENCENT_SECRET_KEY,
      sdkAppId: v.SMS_TENCENT_SDK_APP_ID,
      signName: v.SMS_TENCENT_SIGN_NAME,
      templateId: v.SMS_TENCENT_TEMPLATE_ID,
      templateParams,
      region,
      endpoint: endpointFrom(env, 'SMS_TENCENT_ENDPOINT', 'https://sms.tencentcloudapi.com'),
    };
  }
  return { driver: 'log' };
}

/** The listed variables, trimmed; any missing or blank stops the start, all of them named at once. */
function required<K extends string>(env: NodeJS.ProcessEnv, driver: string, title: string, names: K[]): Record<K, string> {
  const missing = names.filter((n) => !env[n]?.trim());
  if (missing.length > 0) {
    throw new Error(`SMS_DRIVER=${driver}（${title}）需要设置 ${missing.join('、')}（见 docs/configuration.md 的“短信”一节）`);
  }
  return Object.fromEntries(names.map((n) => [n, (env[n] as string).trim()])) as Record<K, string>;
}

/** `https://host[:port]` or `http://…` (a local fake); a bare host means HTTPS. */
function endpointFrom(env: NodeJS.ProcessEnv, name: string, example: string): ProviderEndpoint | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw.includes('://') ? raw : `https://${raw}`);
  } catch {
    url = new URL('invalid:');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.host || (url.pathname !== '/' && url.pathname !== '')) {
    throw new Error(`${name} 取值无效：${raw}（应为服务地址，如 ${example}，不带路径）`);
  }
  return { protocol: url.protocol === 'http:' ? 'http' : 'https', host: url.host };
}

import type { FastifyBaseLogger } from 'fastify';
import { sms } from 'tencentcloud-sdk-nodejs-sms';
import { type SmsRefusal, type SmsSender, smsRefused } from './sender.js';
import { CODE_PLACEHOLDER, type TencentSmsConfig } from './settings.js';

const SmsClient = sms.v20210111.Client;

/**
 * SMS_DRIVER=tencent: 腾讯云短信 (SendSms, API 2021-01-11) through its official SDK (tencentcloud-sdk-nodejs-sms), which
 * signs each call with TC3-HMAC-SHA256 using the SecretKey. The code goes in as the template's positional parameters
 * SMS_TENCENT_TEMPLATE_PARAMS with {code} replaced.
 */
export class TencentSmsSender implements SmsSender {
  readonly driver = 'tencent';
  private readonly client: InstanceType<typeof SmsClient>;

  constructor(
    private readonly config: TencentSmsConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    this.client = new SmsClient({
      credential: { secretId: config.secretId, secretKey: config.secretKey },
      region: config.region,
      profile: {
        httpProfile: {
          // Unset: the SDK's sms.tencentcloudapi.com over HTTPS; SMS_TENCENT_ENDPOINT replaces it.
          ...(config.endpoint ? { endpoint: config.endpoint.host, protocol: `${config.endpoint.protocol}://` } : {}),
          // Seconds. The user waits on the answer: a provider that hangs becomes a refusal, not a request that never ends.
          reqTimeout: 10,
        },
      },
    });
  }

  async send(mobile: string, code: string): Promise<void> {
    let status: { Code?: string; Message?: string } | undefined;
    let requestId: string | undefined;
    try {
      const answer = await this.client.SendSms({
        // Mainland numbers only (the routes accept 1[3-9]xxxxxxxxx), in the E.164 form the API asks for.
        PhoneNumberSet: [`+86${mobile}`],
        SmsSdkAppId: this.config.sdkAppId,
        SignName: this.config.signName,
        TemplateId: this.config.templateId,
        TemplateParamSet: this.config.templateParams.map((p) => (p === CODE_PLACEHOLDER ? code : p)),
      });
      status = answer.SendStatusSet?.[0];
      requestId = answer.RequestId;
    } catch (err) {
      // The whole call refused (Response.Error: a wrong key or signature, a bad template) or not reached at all.
      const e = err as { code?: string; message?: string; requestId?: string; httpCode?: number };
      const providerCode = e.code || (e.httpCode ? `HTTP ${e.httpCode}` : 'NetworkError');
      throw smsRefused(this.log, this.driver, mobile, tencentRefusal(providerCode), { code: providerCode, message: e.message, requestId: e.requestId });
    }
    // The call succeeded; each number has its own status (per-number limits, a number that cannot receive).
    if (status?.Code !== 'Ok') {
      const providerCode = status?.Code ?? 'EmptySendStatus';
      throw smsRefused(this.log, this.driver, mobile, tencentRefusal(providerCode), { code: providerCode, message: status?.Message, requestId });
    }
  }
}

/** Tencent Cloud's error codes (cloud.tencent.com/document/product/382/55981) in the user's terms. */
export function tencentRefusal(code: string): SmsRefusal {
  if (/^(AuthFailure|UnauthorizedOperation)/.test(code)) return 'account';
  if (/^(LimitExceeded|RequestLimitExceeded)/.test(code)) return 'throttled';
  if (/InsufficientBalance/.test(code)) return 'balance';
  if (/PhoneNumber|IncorrectPhone/.test(code)) return 'number';
  if (/Template|Signature|MissingSign/.test(code)) return 'template';
  return 'unavailable';
}

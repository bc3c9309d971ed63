import Dysmsapi, { SendSmsRequest } from '@alicloud/dysmsapi20170525';
import type { FastifyBaseLogger } from 'fastify';
import { type SmsRefusal, type SmsSender, smsRefused } from './sender.js';
import type { AliyunSmsConfig } from './settings.js';

// A CommonJS package: under Node's ESM loader its default import is the whole exports object, the client its `default`.
const Client = (Dysmsapi as unknown as { default?: typeof Dysmsapi }).default ?? Dysmsapi;
type ClientConfig = ConstructorParameters<typeof Dysmsapi>[0];

/**
 * SMS_DRIVER=aliyun: 阿里云短信服务 through its official SDK (@alicloud/dysmsapi20170525), which signs each call with
 * ACS3-HMAC-SHA256 using the AccessKey secret. The code goes in as TemplateParam {"<codeParam>":"123456"}.
 */
export class AliyunSmsSender implements SmsSender {
  readonly driver = 'aliyun';
  private readonly client: Dysmsapi;

  constructor(
    private readonly config: AliyunSmsConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    const clientConfig = {
      accessKeyId: config.accessKeyId,
      accessKeySecret: config.accessKeySecret,
      // The SDK's default (no region) is dysmsapi.aliyuncs.com over HTTPS; SMS_ALIYUN_ENDPOINT replaces it.
      endpoint: config.endpoint?.host ?? 'dysmsapi.aliyuncs.com',
      protocol: config.endpoint?.protocol ?? 'https',
      // The user waits on the answer: a provider that hangs becomes a refusal, not a request that never ends.
      connectTimeout: 5000,
      readTimeout: 10_000,
    };
    this.client = new Client(clientConfig as ClientConfig);
  }

  async send(mobile: string, code: string): Promise<void> {
    const request = new SendSmsRequest({
      phoneNumbers: mobile,
      signName: this.config.signName,
      templateCode: this.config.templateCode,
      templateParam: JSON.stringify({ [this.config.codeParam]: code }),
    });
    let answer: { code?: string; message?: string; requestId?: string } | undefined;
    try {
      answer = (await this.client.sendSms(request)).body;
    } catch (err) {
      // Refused by the gateway (HTTP 4xx/5xx: a wrong key or signature, throttling) or not reached at all.
      const e = err as { code?: string; message?: string; data?: { RequestId?: string; Message?: string } };
      const providerCode = String(e.code ?? 'NetworkError');
      throw smsRefused(this.log, this.driver, mobile, aliyunRefusal(providerCode), {
        code: providerCode,
        message: e.data?.Message ?? e.message,
        requestId: e.data?.RequestId,
      });
    }
    // Business refusals (template, signature, number, flow control) come back as HTTP 200 with a Code other than OK.
    if (answer?.code !== 'OK') {
      const providerCode = answer?.code ?? 'EmptyResponse';
      throw smsRefused(this.log, this.driver, mobile, aliyunRefusal(providerCode), {
        code: providerCode,
        message: answer?.message,
        requestId: answer?.requestId,
      });
    }
  }
}

/** Aliyun's error codes (help.aliyun.com/document_detail/101346) in the user's terms. */
export function aliyunRefusal(code: string): SmsRefusal {
  if (/^(SignatureDoesNotMatch|IncompleteSignature|InvalidAccessKeyId|Forbidden|isp\.RAM_PERMISSION_DENY|isv\.ACCOUNT_)/.test(code)) return 'account';
  if (/LIMIT_CONTROL|^Throttling/.test(code)) return 'throttled';
  if (/^isv\.(AMOUNT_NOT_ENOUGH|OUT_OF_SERVICE)/.test(code)) return 'balance';
  if (/^isv\.MOBILE_/.test(code)) return 'number';
  if (/^isv\.(SMS_TEMPLATE|SMS_SIGN|TEMPLATE_|INVALID_PARAMETERS|PARAM_)/.test(code)) return 'template';
  return 'unavailable';
}

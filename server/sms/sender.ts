import type { FastifyBaseLogger } from 'fastify';
import { type ApiError, fail } from '../http/envelope.js';
import type { SmsDriverName } from './settings.js';

/** Delivers a verification code by SMS (the driver is chosen with SMS_DRIVER, docs/configuration.md). */
export interface SmsSender {
  readonly driver: SmsDriverName;
  /** Resolves once the provider accepted the message; a refusal rejects with the Chinese error the user sees. */
  send(mobile: string, code: string): Promise<void>;
}

/** Why a provider refused, in the user's words; the provider's own code and message go to the log only. */
export type SmsRefusal = 'throttled' | 'number' | 'template' | 'account' | 'balance' | 'unavailable';

const REASONS: Record<SmsRefusal, string> = {
  throttled: '该手机号接收短信过于频繁',
  number: '该手机号无法接收短信',
  template: '短信签名或模板配置有误',
  account: '短信服务账号校验未通过',
  balance: '短信服务余额不足',
  unavailable: '短信服务暂时不可用',
};

/** What the provider answered, for the log: never a secret. */
export interface ProviderAnswer {
  /** The provider's error code (isv.BUSINESS_LIMIT_CONTROL, AuthFailure.SignatureFailure …) or the network error. */
  code: string;
  message?: string;
  requestId?: string;
}

/**
 * Logs a refused send with the provider's code (the number masked) and gives the error the route answers with:
 * 短信发送失败：<reason>，请稍后重试或联系管理员.
 */
export function smsRefused(log: FastifyBaseLogger, driver: SmsDriverName, mobile: string, refusal: SmsRefusal, answer: ProviderAnswer): ApiError {
  log.error(
    { sms: driver, mobile: maskMobile(mobile), providerCode: answer.code, providerMessage: answer.message, requestId: answer.requestId },
    `短信发送失败（${driver}）：${answer.code}${answer.message ? ` ${answer.message}` : ''}`,
  );
  return fail(`短信发送失败：${REASONS[refusal]}，请稍后重试或联系管理员`);
}

/** 13800001234 → 138****1234: enough to find a complaint in the log, not a list of customers' numbers. */
export const maskMobile = (mobile: string): string => (mobile.length >= 7 ? `${mobile.slice(0, 3)}****${mobile.slice(-4)}` : '****');

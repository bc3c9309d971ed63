import type { FastifyBaseLogger } from 'fastify';
import { AliyunSmsSender } from './aliyun.js';
import { LogSmsSender } from './log.js';
import type { SmsSender } from './sender.js';
import type { SmsConfig } from './settings.js';
import { TencentSmsSender } from './tencent.js';

export type { SmsSender } from './sender.js';
export type { SmsConfig } from './settings.js';

/** The driver SMS_DRIVER chose (server/config.ts reads it; docs/configuration.md lists the settings). */
export function createSmsSender(config: SmsConfig, log: FastifyBaseLogger): SmsSender {
  switch (config.driver) {
    case 'log':
      return new LogSmsSender(log);
    case 'aliyun':
      return new AliyunSmsSender(config, log);
    case 'tencent':
      return new TencentSmsSender(config, log);
  }
}

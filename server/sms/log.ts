import type { FastifyBaseLogger } from 'fastify';
import type { SmsSender } from './sender.js';

/** SMS_DRIVER=log (the default): no SMS is sent; the code is written to the server log (development and demos). */
export class LogSmsSender implements SmsSender {
  readonly driver = 'log';
  constructor(private readonly log: FastifyBaseLogger) {}
  async send(mobile: string, code: string): Promise<void> {
    this.log.warn({ mobile, code }, `[短信-日志驱动] 未真正发送短信：手机号 ${mobile} 的验证码为 ${code}（5 分钟内有效）`);
  }
}

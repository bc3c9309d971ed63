import type { FastifyBaseLogger } from 'fastify';

/** Pluggable SMS delivery. Add a driver (e.g. a cloud SMS provider) here and select it with SMS_DRIVER. */
export interface SmsSender {
  readonly driver: string;
  send(mobile: string, code: string): Promise<void>;
}

/** Default driver: no SMS is sent; the code is written to the server log (development and demos). */
class LogSmsSender implements SmsSender {
  readonly driver = 'log';
  constructor(private readonly log: FastifyBaseLogger) {}
  async send(mobile: string, code: string): Promise<void> {
    this.log.warn({ mobile, code }, `[短信-日志驱动] 未真正发送短信：手机号 ${mobile} 的验证码为 ${code}（5 分钟内有效）`);
  }
}

export function createSmsSender(driver: 'log', log: FastifyBaseLogger): SmsSender {
  switch (driver) {
    case 'log':
      return new LogSmsSender(log);
  }
}

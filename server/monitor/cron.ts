import { Cron } from 'croner';

/**
 * Cron expressions of 定时任务, parsed by croner. Quartz-style six fields with seconds (`0 0/10 * * * ?`, RuoYi's form)
 * and five-field Unix expressions are both accepted; `?` means "any". Times are evaluated in China time (UTC+8), the
 * zone every user of the console works in, whatever the server's own zone is.
 */
export const CRON_TIMEZONE = 'Asia/Shanghai';

function parse(expression: string): Cron {
  return new Cron(expression.trim(), { paused: true, timezone: CRON_TIMEZONE, sloppyRanges: true, mode: '5-or-6-parts' });
}

/** null when the expression is valid, else a Chinese reason. */
export function cronProblem(expression: string | null | undefined): string | null {
  const text = (expression ?? '').trim();
  if (!text) return 'Cron表达式不能为空';
  try {
    if (!parse(text).nextRun()) return 'Cron表达式不正确（不会再触发）';
    return null;
  } catch {
    return 'Cron表达式不正确';
  }
}

/** The next `count` fire times (epoch ms) after `from`; empty for an invalid expression. */
export function nextFireTimes(expression: string, count: number, from = Date.now()): number[] {
  try {
    return parse(expression)
      .nextRuns(count, new Date(from))
      .map((d) => d.getTime());
  } catch {
    return [];
  }
}

/** The first fire time strictly after `from`, or null. */
export function nextFireTime(expression: string, from = Date.now()): number | null {
  return nextFireTimes(expression, 1, from)[0] ?? null;
}

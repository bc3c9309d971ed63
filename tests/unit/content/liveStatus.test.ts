import { LIVE_DEFAULT_MS, liveStatusOf, liveStatusText } from '@common/content/liveStatus';
import { describe, expect, it } from 'vitest';

/** The one status rule of a live broadcast (docs/content.md "直播"): by time, moved forward only by the stored hand. */
const HOUR = 3600_000;
const START = Date.UTC(2026, 5, 9, 10); // 2026-06-09 18:00 (UTC+8)
const NOV = Date.UTC(2026, 10, 28, 4); // 2026-11-28

describe('liveStatusOf / liveStatusText', () => {
  it('a 预告 dated 2026-06-09 reads 已结束 in November 2026, whatever was stored', () => {
    const live = { startTime: START, endTime: START + 2 * HOUR, liveStatus: '0' };
    expect(liveStatusText(live, NOV)).toBe('已结束');
    expect(liveStatusOf(live, NOV)).toBe('2');
  });

  it('goes 预告 → 直播中 → 已结束 with the clock, the end excluded', () => {
    const live = { startTime: START, endTime: START + HOUR, liveStatus: '0' };
    expect(liveStatusText(live, START - 1)).toBe('预告');
    expect(liveStatusText(live, START)).toBe('直播中');
    expect(liveStatusText(live, START + HOUR - 1)).toBe('直播中');
    expect(liveStatusText(live, START + HOUR)).toBe('已结束');
  });

  it('without an end time (or one not after the start) a broadcast runs 2 hours; without a start it is a 预告', () => {
    expect(LIVE_DEFAULT_MS).toBe(2 * HOUR);
    expect(liveStatusText({ startTime: START }, START + 2 * HOUR - 1)).toBe('直播中');
    expect(liveStatusText({ startTime: START, endTime: null }, START + 2 * HOUR)).toBe('已结束');
    expect(liveStatusText({ startTime: START, endTime: START - HOUR }, START + HOUR)).toBe('直播中');
    expect(liveStatusText({ startTime: null, liveStatus: '0' }, NOV)).toBe('预告');
  });

  it('the stored status only moves it forward: 直播中 starts early, 已结束 ends early, neither holds it back', () => {
    expect(liveStatusText({ startTime: START, liveStatus: '1' }, START - HOUR)).toBe('直播中'); // 提前开播
    expect(liveStatusText({ startTime: START, liveStatus: '2' }, START + 10 * 60_000)).toBe('已结束'); // 手动结束
    expect(liveStatusText({ startTime: START, liveStatus: '2' }, START - HOUR)).toBe('已结束'); // 取消
    expect(liveStatusText({ startTime: START, endTime: START + HOUR, liveStatus: '1' }, NOV)).toBe('已结束'); // a stale 直播中
    expect(liveStatusText({ startTime: START, liveStatus: '9' }, START - 1)).toBe('预告'); // an unknown code is ignored
  });

  it('reads 回放 once ended with a replay address, and the rule is idempotent on its own answer', () => {
    const live = { startTime: START, endTime: START + HOUR, replayUrl: 'https://cdn.example.com/r.m3u8' };
    expect(liveStatusText(live, START + 30 * 60_000)).toBe('直播中');
    expect(liveStatusText(live, NOV)).toBe('回放');
    expect(liveStatusText({ ...live, replayUrl: '  ' }, NOV)).toBe('已结束');
    for (const now of [START - 1, START, NOV]) expect(liveStatusOf({ ...live, liveStatus: liveStatusOf(live, now) }, now)).toBe(liveStatusOf(live, now));
  });
});

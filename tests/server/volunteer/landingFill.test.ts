import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectNameSet, subjectsAllow } from '../../../server/volunteer/eligibility.js';
import { lineIdentity } from '../../../server/volunteer/engine/identity.js';
import { eligibilityNeeded } from '../../../server/volunteer/engine/specialPlans.js';
import { seedShandongHistory } from '../../../server/volunteer/import/history.js';
import { classifyMajor } from '../../../server/volunteer/majorClass.js';
import { mulberry32 as rng } from '../../seededRandom.js';
import { startServer, type TestServer } from '../harness.js';
import { api, type ChanceRowT, loginAll, ok, type Tokens } from './helpers.js';

/**
 * 智能填报 by where the student lands (issue 24 item 2) on the real Shandong 2021–2026 data: over random students the
 * plan never breaks the risk target, the 冲 floor, the school cap, one line per programme or eligibility; the family's
 * preferences (regions, 公办, 专业类) and locked choices are kept.
 */

type Item = ChanceRowT & {
  sort: number;
  probability: number | null;
  subjectReq: string | null;
  planTags: string[];
  isPublic: number | null;
  locked?: boolean;
  safety?: boolean;
};
interface Auto {
  strategy: string;
  items: Item[];
  notes: string[];
  explanation: string[];
  simulation: { year: number; slide: number; admitted: number; byTier: Record<string, number> } | null;
}

const AUTO = '/appv2/api/Filling/schoolEnrollChance_auto';
const SUBJECT_IDS = [1, 2, 3, 4, 5, 6];

describe('智能填报 by landing (real Shandong 2021–2026)', () => {
  let s: TestServer;
  let t: Tokens;

  beforeAll(async () => {
    s = await startServer('sqlite');
    await seedShandongHistory(s.app.db.kysely);
    t = await loginAll(s);
  }, 180_000);
  afterAll(async () => {
    await s?.close();
  });

  it('never breaks the risk target, the 冲 floor, the school cap, one line per programme or eligibility (random students)', async () => {
    const r = rng(2027);
    for (let k = 0; k < 6; k++) {
      const score = 470 + Math.floor(r() * 210);
      const pool = [...SUBJECT_IDS];
      const subjects: number[] = [];
      while (subjects.length < 3) subjects.push(pool.splice(Math.floor(r() * pool.length), 1)[0]);
      subjects.sort();
      const id = (await ok<{ studentId: number }>(s, t.expert, '/dev-api/api/Subscriber/add', { name: `随机${k}`, score, subjects })).studentId;
      const auto = await ok<Auto>(s, t.expert, AUTO, { studentId: id });
      const who = `${score} 分 ${subjects.join('')}`;
      expect(auto.strategy).toBe('landing');
      expect(auto.items.length, who).toBeGreaterThan(40);
      expect(auto.items.length).toBeLessThanOrEqual(96);
      expect(auto.simulation?.year).toBe(2027);
      expect(auto.simulation?.slide ?? 1, who).toBeLessThanOrEqual(0.005);
      const mine = subjectNameSet(subjects.join(','));
      const perSchool = new Map<string, number>();
      const programmes = new Set<string>();
      for (const it of auto.items) {
        expect(it.probability ?? 0, `${who} ${it.schoolName} ${it.majorName}`).toBeGreaterThanOrEqual(0.15);
        expect(subjectsAllow(it.subjectReq, mine), `${who} ${it.majorName} ${it.subjectReq}`).toBe(true);
        expect(eligibilityNeeded(it.planTags as never).length, `${who} ${it.majorName}`).toBe(0);
        perSchool.set(it.schoolCode, (perSchool.get(it.schoolCode) ?? 0) + 1);
        programmes.add(lineIdentity({ schoolCode: it.schoolCode, majorName: it.majorName }) + (it.majorName ?? ''));
      }
      expect(Math.max(...perSchool.values()), who).toBeLessThanOrEqual(3);
      expect(programmes.size).toBe(auto.items.length);
      expect(auto.explanation.join('')).toContain('按录取去向优化');
    }
  }, 240_000);

  it('keeps the family’s regions, 公办 and 专业类; locked choices stay in place and the rest is re-optimised', async () => {
    const id = (await ok<{ studentId: number }>(s, t.expert, '/dev-api/api/Subscriber/add', { name: '计算机考生', score: 590, subjects: [1, 2, 3] })).studentId;
    const plain = await ok<Auto>(s, t.expert, AUTO, { studentId: id });
    const prefs = { region: ['山东', '江苏'], isPublic: 1, majorClass: ['0809'] };
    const auto = await ok<Auto>(s, t.expert, AUTO, { studentId: id, ...prefs });
    expect(auto.items.length).toBeGreaterThan(40);
    for (const it of auto.items) {
      expect(['山东', '江苏']).toContain(it.province);
      expect(it.isPublic).toBe(1);
    }
    const computing = (items: Item[]) => items.filter((i) => classifyMajor(i.majorName ?? '')?.classCode === '0809').length;
    expect(computing(auto.items)).toBeGreaterThan(computing(plain.items));
    // Only 计算机类 when the family says so.
    const only = await ok<Auto>(s, t.expert, AUTO, { studentId: id, ...prefs, majorClassOnly: 1 });
    expect(only.items.length).toBeGreaterThan(0);
    expect(computing(only.items)).toBe(only.items.length);
    // Lock two choices (the 20th at place 1, the 30th at place 5): they stay there, the rest is re-chosen around them.
    const locked = [
      { lineId: auto.items[19].lineId, sort: 1 },
      { lineId: auto.items[29].lineId, sort: 5 },
    ];
    const again = await ok<Auto>(s, t.expert, AUTO, { studentId: id, ...prefs, locked });
    expect(again.items[0].lineId).toBe(locked[0].lineId);
    expect(again.items[4].lineId).toBe(locked[1].lineId);
    expect(again.items[0].locked).toBe(true);
    expect(new Set(again.items.map((i) => i.lineId)).size).toBe(again.items.length);
    expect(again.simulation?.slide ?? 1).toBeLessThanOrEqual(0.005);
    // Putting a less wanted line first changes where the student lands.
    expect(again.simulation?.byTier).not.toEqual(auto.simulation?.byTier);
  }, 120_000);

  it('refuses bad options in Chinese and changes nothing', async () => {
    const id = (await ok<{ studentId: number }>(s, t.expert, '/dev-api/api/Subscriber/add', { name: '参数考生', score: 560, subjects: [1, 2, 3] })).studentId;
    const msg = async (body: Record<string, unknown>) => (await api(s, t.expert, AUTO, { studentId: id, ...body })).msg;
    expect(await msg({ slideTarget: 0.2 })).toBe('滑档风险上限必须在 0 到 0.05 之间');
    expect(await msg({ chongFloor: 0.9 })).toBe('冲刺志愿的最低录取概率必须在 0.05 到 0.5 之间');
    expect(await msg({ majorClass: ['计算机'] })).toBe('专业类代码不正确：计算机（门类 2 位、专业类 4 位数字）');
    expect(await msg({ locked: [{ lineId: 1 }] })).toBe('锁定的志愿需要志愿 ID 和位置（从 1 开始）');
    expect(await msg({ strategy: 'best' })).toBe('填报方式不正确（可选：landing 按录取去向优化、tiers 按冲稳保数量）');
    const plan = await ok<{ items: unknown[] }>(s, t.expert, '/appv2/api/index/zyInfo', { studentId: id });
    expect(plan.items).toEqual([]);
  });
});

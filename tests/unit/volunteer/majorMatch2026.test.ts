// @vitest-environment node
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../server/db/seed/admission.js';
import { splitName } from '../../../server/volunteer/engine/identity.js';
import { classOfLines, majorFacts } from '../../../server/volunteer/majorClass.js';

/**
 * 专业名称匹配（2026） (issue 27, item 2; figures in docs/volunteer-model.md): every distinct major name printed in the
 * Shandong 2026 投档表 (the copy of ../shared/data/gaokao-shandong/toudang-2026.csv) against the 2025 本科专业目录.
 * The share may only grow: a change to the rules that loses names fails here.
 */

const LINES = parseCsv(fs.readFileSync(new URL('../../../server/db/seed/data/gaokao-shandong/toudang-2026.csv', import.meta.url), 'utf8'));
const NAMES = [...new Set(LINES.map((l) => l.major))];
const schoolsOf = new Map<string, Set<string>>();
for (const l of LINES) {
  const set = schoolsOf.get(l.major) ?? new Set<string>();
  set.add(l.schoolName);
  schoolsOf.set(l.major, set);
}

describe('matching of the 2026 Shandong major names to the 2025 catalogue', () => {
  it('places at least 89.4 % of the 4,193 distinct printed names (3,752 measured), most as the catalogue major itself', () => {
    const cov = classOfLines(NAMES);
    expect(cov.total).toBe(4193);
    expect(cov.matched / cov.total).toBeGreaterThanOrEqual(0.894);
    expect(cov.byRule.major).toBeGreaterThanOrEqual(3385);
    expect(cov.byRule.class).toBeGreaterThanOrEqual(347);
    expect(cov.matched).toBe(Object.values(cov.byRule).reduce((a, b) => a + b, 0));
  });

  it('places at least 80 % of the 864 distinct base names (before the bracket)', () => {
    const cov = classOfLines(new Set(NAMES.map((n) => splitName(n).base)));
    expect(cov.total).toBe(864);
    expect(cov.matched / cov.total).toBeGreaterThanOrEqual(0.8);
  });

  it('leaves out only 试验班 / 大类 names, names printed only by 职业(技术)大学, and a few names new in 2026', () => {
    const out = NAMES.filter((n) => !majorFacts(n));
    const trial = out.filter((n) => /试验班|实验班|大类|学院$/.test(splitName(n).base));
    const vocational = out.filter((n) => !trial.includes(n) && [...(schoolsOf.get(n) ?? [])].every((s) => /职业/.test(s)));
    const other = out.filter((n) => !trial.includes(n) && !vocational.includes(n));
    expect(out.length).toBe(441);
    expect(trial.length).toBe(270);
    expect(vocational.length).toBe(134);
    expect(other).toEqual(expect.arrayContaining(['具身智能', '数字贸易', '语言科学']));
    expect(other.length).toBeLessThanOrEqual(37);
  });

  it('says which rule placed a name: 计算机科学与技术 the major, 计算机类(含双学士学位) the class, 护理 an alias', () => {
    expect(majorFacts('计算机科学与技术')).toMatchObject({ rule: 'major', major: { code: '080901' } });
    expect(majorFacts('计算机类(含双学士学位)')).toMatchObject({ rule: 'class', major: null, classCode: '0809' });
    expect(majorFacts('理科试验班(数学类)')).toMatchObject({ rule: 'bracket', className: '数学类' });
    expect(majorFacts('护理')).toMatchObject({ rule: 'alias', major: { code: '101101K', name: '护理学' } });
    for (const name of ['计算机科学与技术', '计算机类(含双学士学位)', '理科试验班(数学类)', '护理']) expect(NAMES).toContain(name);
  });
});

// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { Catalogue, CatalogueEntry } from '../../../server/volunteer/catalogue.js';
import { subjectNameSet, subjectsAllow } from '../../../server/volunteer/eligibility.js';
import { eligibleFor, type PlanTag } from '../../../server/volunteer/engine/specialPlans.js';
import { eligibilityTest, subjectTest } from '../../../server/volunteer/filterColumns.js';

/**
 * The acceptance query's subject and special-plan filters as typed-array lookups (server/volunteer/filterColumns.ts)
 * must keep exactly the lines the rules themselves (subjectsAllow, eligibleFor) keep.
 */
const reqs = [null, '', '不限', '物理', '物理、化学', '物理或化学', '思想政治', '历史、思想政治', '化学或生物'];
const tagSets: PlanTag[][] = [[], ['地方专项'] as PlanTag[], ['中外合作'] as PlanTag[], ['公费师范'] as PlanTag[], ['师范'] as PlanTag[]];
const entries = Array.from({ length: 200 }, (_, i) => ({ subjectReq: reqs[i % reqs.length], planTags: tagSets[(i * 7) % tagSets.length] }));
const cat = { entries: entries as unknown as CatalogueEntry[] } as Catalogue;

describe('filter columns of the acceptance query', () => {
  it('keeps the lines whose subject requirement the student meets, as subjectsAllow decides', () => {
    for (const subjects of ['1,2,3', '4,5,6', '1,4,6', '3,5,6']) {
      const mine = subjectNameSet(subjects);
      const test = subjectTest(cat, mine);
      const kept = entries.map((_, i) => test(i));
      expect(kept).toEqual(entries.map((e) => subjectsAllow(e.subjectReq, mine)));
      expect(kept.some((k) => !k)).toBe(true);
    }
  });

  it('holds back special plans the student has not declared, as eligibleFor decides', () => {
    for (const declared of [[], ['地方专项'], ['地方专项', '公费师范']]) {
      const set = new Set(declared);
      const test = eligibilityTest(cat, set);
      expect(entries.map((_, i) => test(i))).toEqual(entries.map((e) => eligibleFor(e.planTags, set)));
    }
    expect(eligibilityTest(cat, new Set())(3)).toBe(false);
    expect(eligibilityTest(cat, new Set(['地方专项']))(3)).toBe(true);
  });
});

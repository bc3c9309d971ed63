import type { Catalogue } from './catalogue.js';
import { subjectsAllow } from './eligibility.js';
import { eligibleFor, type PlanTag } from './engine/specialPlans.js';

/**
 * The per-student filters of the acceptance query (subject requirements, special-plan eligibility) as lookups in
 * typed arrays. Why: over five years' lines (31 139) evaluating the rule per line cost most of the query — a string
 * split per line, and reads of entry objects scattered in memory in rank order — although a catalogue holds only about
 * 20 distinct requirement texts and a handful of tag sets. The distinct values are numbered once per catalogue; a
 * student's rule is then decided once per distinct value, and a line costs two array reads. The rules themselves stay
 * in eligibility.ts / specialPlans.ts (the same functions decide a plan save).
 */

interface FilterColumns {
  /** Per entry: the index of its subject requirement text in `reqs`. */
  reqIds: Uint16Array;
  reqs: Array<string | null>;
  /** Per entry: the index of its plan-tag set in `tagSets`. */
  tagIds: Uint16Array;
  tagSets: PlanTag[][];
}

const built = new WeakMap<Catalogue, FilterColumns>();

function number<T>(values: T[], key: (v: T) => string | null, ids: Uint16Array): T[] {
  const seen = new Map<string | null, number>();
  const distinct: T[] = [];
  values.forEach((v, i) => {
    const k = key(v);
    let id = seen.get(k);
    if (id === undefined) {
      id = distinct.length;
      seen.set(k, id);
      distinct.push(v);
    }
    ids[i] = id;
  });
  return distinct;
}

function columnsOf(cat: Catalogue): FilterColumns {
  let c = built.get(cat);
  if (!c) {
    const n = cat.entries.length;
    const reqIds = new Uint16Array(n);
    const tagIds = new Uint16Array(n);
    const reqs = number(
      cat.entries.map((e) => e.subjectReq),
      (r) => r,
      reqIds,
    );
    const tagSets = number(
      cat.entries.map((e) => e.planTags),
      (t) => t.join('|'),
      tagIds,
    );
    c = { reqIds, reqs, tagIds, tagSets };
    built.set(cat, c);
  }
  return c;
}

/** Whether entry i's subject requirement admits a student with these subjects (subjectsAllow, decided per text). */
export function subjectTest(cat: Catalogue, mine: ReadonlySet<string>): (i: number) => boolean {
  const { reqIds, reqs } = columnsOf(cat);
  const ok = Uint8Array.from(reqs, (r) => (subjectsAllow(r, mine) ? 1 : 0));
  return (i) => ok[reqIds[i]] === 1;
}

/** Whether the student may fill entry i as far as special plans go (eligibleFor, decided per tag set). */
export function eligibilityTest(cat: Catalogue, declared: ReadonlySet<string>): (i: number) => boolean {
  const { tagIds, tagSets } = columnsOf(cat);
  const ok = Uint8Array.from(tagSets, (t) => (eligibleFor(t, declared) ? 1 : 0));
  return (i) => ok[tagIds[i]] === 1;
}

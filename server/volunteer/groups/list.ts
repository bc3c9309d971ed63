import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { fail } from '../../http/envelope.js';
import type { Tier } from '../engine/index.js';
import { type GroupStudent, groupOptions, groupRules } from './query.js';

/**
 * POST /dev-api/volunteer/groups/options { studentId, tier?, keyword?, pageNum?, pageSize? }: one page of the
 * student's 院校专业组 options (groups/query.ts) with the counts per tier, the rules (45 groups, 6 majors) and the
 * spread's provenance.
 */

const TIERS: Tier[] = ['冲', '稳', '保'];
const MAX_PAGE_SIZE = 500;

export async function groupOptionsFor(db: Kysely<Database>, student: GroupStudent, p: Record<string, unknown>) {
  const rules = await groupRules(db, student.province);
  if (!rules) throw fail(`${student.province}不按院校专业组填报`);
  const tier = p.tier == null || p.tier === '' ? null : String(p.tier);
  if (tier != null && !TIERS.includes(tier as Tier)) throw fail('梯度只能是 冲、稳、保');
  const keyword = typeof p.keyword === 'string' ? p.keyword.trim().slice(0, 50) : '';
  const pageNum = Math.max(1, Number.parseInt(String(p.pageNum ?? 1), 10) || 1);
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Number.parseInt(String(p.pageSize ?? 20), 10) || 20));
  const { options, ...q } = await groupOptions(db, student);
  const tierCounts = { 冲: 0, 稳: 0, 保: 0 } as Record<Tier, number>;
  for (const o of options) if (o.tier) tierCounts[o.tier]++;
  const filtered = options.filter((o) => (!tier || o.tier === tier) && (!keyword || o.schoolName.includes(keyword)));
  return {
    ...q,
    slotLimit: rules.slotLimit,
    groupMajorLimit: rules.groupMajorLimit,
    tierCounts,
    total: filtered.length,
    rows: filtered.slice((pageNum - 1) * pageSize, pageNum * pageSize),
  };
}

/**
 * The plan gradient and limit check, shared by the console (live warnings in the plan editor) and the server (the
 * same check again when a plan is saved or reviewed). Pure: no imports from either side.
 */

export type Tier = '冲' | '稳' | '保';

/** One entry of a plan, for the gradient check. */
export interface PlanEntry {
  schoolCode: string;
  schoolName?: string | null;
  groupCode?: string | null;
  majorName?: string | null;
  tier: Tier | null;
}

export type GradientCode = 'tier-order' | 'too-many-rush' | 'no-safety' | 'duplicate' | 'slot-limit' | 'group-major-limit';

export interface GradientWarning {
  code: GradientCode;
  message: string;
  /** 0-based plan positions concerned. */
  positions: number[];
}

export interface GradientOptions {
  slotLimit: number;
  /** Majors per 院校专业组 (3+1+2); 0 = no limit. */
  groupMajorLimit?: number;
  /** Largest allowed share of 冲. Default 0.5. */
  maxRushShare?: number;
}

/** Identity of a volunteer unit across years: school + group + major. */
export function optionKey(o: { schoolCode: string; groupCode?: string | null; majorName?: string | null }): string {
  return `${o.schoolCode}|${o.groupCode ?? ''}|${o.majorName ?? ''}`;
}

const TIER_INDEX: Record<Tier, number> = { 冲: 0, 稳: 1, 保: 2 };

const nth = (i: number) => `第${i + 1}个志愿`;
const label = (e: PlanEntry) => [e.schoolName ?? e.schoolCode, e.groupCode ? `${e.groupCode}组` : null, e.majorName].filter(Boolean).join(' ');

/**
 * Checks a plan's gradient and limits. Warnings (in plan order of the first position concerned, by check):
 *  - slot-limit: more entries than the province allows;
 *  - duplicate: the same school + group + major more than once;
 *  - group-major-limit: more majors in one 院校专业组 than groupMajorLimit (3+1+2; 0 = no limit);
 *  - tier-order: an entry placed after a safer one (e.g. 冲 after 稳), one warning per out-of-order entry;
 *  - too-many-rush: 冲 above maxRushShare (default 50 %) of the entries with a tier;
 *  - no-safety: a non-empty plan without any 保.
 */
export function checkGradient(plan: readonly PlanEntry[], opts: GradientOptions): GradientWarning[] {
  const warnings: GradientWarning[] = [];
  const maxRushShare = opts.maxRushShare ?? 0.5;

  if (plan.length > opts.slotLimit) {
    warnings.push({
      code: 'slot-limit',
      message: `志愿数 ${plan.length} 超过上限 ${opts.slotLimit} 个，超出的 ${plan.length - opts.slotLimit} 个无法提交`,
      positions: plan.map((_, i) => i).slice(opts.slotLimit),
    });
  }

  const byKey = new Map<string, number[]>();
  plan.forEach((e, i) => {
    const key = optionKey(e);
    const list = byKey.get(key);
    if (list) list.push(i);
    else byKey.set(key, [i]);
  });
  for (const positions of byKey.values()) {
    if (positions.length < 2) continue;
    warnings.push({
      code: 'duplicate',
      message: `${positions.map((p) => `第${p + 1}`).join('、')}个志愿重复：${label(plan[positions[0]])}`,
      positions,
    });
  }

  const limit = opts.groupMajorLimit ?? 0;
  if (limit > 0) {
    const groups = new Map<string, { majors: Set<string>; positions: number[] }>();
    plan.forEach((e, i) => {
      const key = `${e.schoolCode}|${e.groupCode ?? ''}`;
      let g = groups.get(key);
      if (!g) {
        g = { majors: new Set(), positions: [] };
        groups.set(key, g);
      }
      g.majors.add(e.majorName ?? '');
      g.positions.push(i);
    });
    for (const g of groups.values()) {
      if (g.majors.size <= limit) continue;
      const e = plan[g.positions[0]];
      warnings.push({
        code: 'group-major-limit',
        message: `${e.schoolName ?? e.schoolCode}${e.groupCode ? ` ${e.groupCode}组` : ''} 填了 ${g.majors.size} 个专业，超过每组 ${limit} 个的上限`,
        positions: g.positions,
      });
    }
  }

  let safest = -1; // position of the safest entry so far
  plan.forEach((e, i) => {
    if (e.tier == null) return;
    if (safest >= 0 && TIER_INDEX[plan[safest].tier as Tier] > TIER_INDEX[e.tier]) {
      warnings.push({
        code: 'tier-order',
        message: `梯度倒挂：${nth(i)}（${e.tier}）排在更稳妥的${nth(safest)}（${plan[safest].tier}）之后，被前面的志愿录取后将不会再投档到它`,
        positions: [safest, i],
      });
    }
    if (safest < 0 || TIER_INDEX[e.tier] > TIER_INDEX[plan[safest].tier as Tier]) safest = i;
  });

  const tiered = plan.filter((e) => e.tier != null);
  const rush = tiered.filter((e) => e.tier === '冲').length;
  if (tiered.length > 0 && rush / tiered.length > maxRushShare) {
    warnings.push({
      code: 'too-many-rush',
      message: `冲刺志愿 ${rush} 个，占 ${Math.round((rush / tiered.length) * 100)}%，超过 ${Math.round(maxRushShare * 100)}%，风险过高`,
      positions: plan.flatMap((e, i) => (e.tier === '冲' ? [i] : [])),
    });
  }
  if (plan.length > 0 && !plan.some((e) => e.tier === '保')) {
    warnings.push({ code: 'no-safety', message: '方案中没有保底志愿，存在滑档风险', positions: [] });
  }
  return warnings;
}

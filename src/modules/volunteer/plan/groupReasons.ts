/**
 * 智能填报's skipped choices, each refusal once with how many it refused ("志愿表已满…（共 94 个）"), in first-seen
 * order: the result dialog names at most three refusals, and 94 copies of one reason would hide the others.
 */
export function groupReasons(reasons: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const r of reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => (n > 1 ? `${r}（共 ${n} 个）` : r));
}

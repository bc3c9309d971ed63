/**
 * RuoYi's tansParams: query-string form of request params. Empty values are left out, and one level of nesting is
 * written as `name[key]`, which is how RuoYi list screens send date ranges (`params[beginTime]`, `params[endTime]`).
 */
export function tansParams(params: Record<string, unknown>): string {
  const parts: string[] = [];
  const present = (v: unknown) => v !== null && v !== undefined && v !== '';
  for (const [name, value] of Object.entries(params)) {
    if (!present(value)) continue;
    if (typeof value === 'object') {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
        if (present(inner)) parts.push(`${encodeURIComponent(`${name}[${key}]`)}=${encodeURIComponent(String(inner))}`);
      }
    } else {
      parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.join('&');
}

import { type RawBuilder, sql } from 'kysely';

/**
 * A "contains" search that means what the user typed: `%` and `_` are matched literally, not as wildcards (a search
 * for "100%" finds "100%", not everything starting with 100). The escape character is named, because SQLite has none
 * by default.
 */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function contains(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} like ${`%${escapeLike(text)}%`} escape '\\'`;
}

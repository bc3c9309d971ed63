import { sql } from 'kysely';
import type { HelpItem } from '../../common/home/help.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { escapeLike } from '../http/like.js';

/**
 * 帮助中心 (spec §2.3 help center): the published articles of 帮助指南 (service_help, schemas/service) for every
 * signed-in user, searchable by title, keywords and category. Editing stays in 服务中心 › 帮助指南.
 */
export const HELP_LIMIT = 50;

export async function helpArticles(db: Db, keyword: unknown): Promise<HelpItem[]> {
  const k = typeof keyword === 'string' ? keyword.trim() : '';
  if (k.length > 50) throw fail('搜索内容长度不能超过 50 个字符');
  const like = `%${escapeLike(k.toLowerCase())}%`;
  const filter = k
    ? sql`and (lower(title) like ${like} escape '\\' or lower(coalesce(keywords, '')) like ${like} escape '\\' or lower(category) like ${like} escape '\\')`
    : sql``;
  // Result names come back camelCased (the server's Kysely has the CamelCasePlugin).
  const res = await sql<Record<string, unknown>>`select help_id, title, category, keywords, content, update_time, create_time from service_help
    where status = '1' ${filter} order by sort, help_id limit ${HELP_LIMIT}`.execute(db);
  return res.rows.map((r) => ({
    helpId: Number(r.helpId),
    title: String(r.title),
    category: String(r.category),
    keywords: (r.keywords as string | null) ?? null,
    content: String(r.content),
    updateTime: r.updateTime == null ? Number(r.createTime) : Number(r.updateTime),
  }));
}

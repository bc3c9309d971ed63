import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Code, fail, ok } from '../http/envelope.js';
import { contains } from '../http/like.js';
import { findSession } from '../security/sessions.js';
import { admissionAsOf, planByBatch, SUBJECTS, sameScoreYears, schoolLinesByYear, subjectRequirements } from '../volunteer/index.js';
import { registerMajorTools } from './majorTools.js';
import { registerSchoolTools } from './schoolTools.js';

/**
 * The built-in tool site (spec §7.10; issue "console shell" item 5). In the original product the tool cabinet
 * embeds a separate app; this server ships a small one at the default toolbox address /toolbox/ so the cabinet works
 * out of the box. The site is plain HTML + JS (no build) and calls /toolbox/api/* with the console's bearer token
 * handed over in the iframe URL. A missing or expired session answers code 401, which the site reports to the
 * console (postMessage type 'tokenExpired') so the console shows its 重新登录 dialog.
 */
const PROVINCE = '山东';

export async function toolboxRoutes(app: FastifyInstance) {
  const db = app.db.kysely;
  await app.register(fastifyStatic, {
    root: path.join(import.meta.dirname, 'site'),
    prefix: '/toolbox/',
    decorateReply: false,
    index: ['index.html'],
    dotfiles: 'deny',
    // max-age 0: the tiny site is revalidated on every load, so a new server version is picked up at once.
    maxAge: 0,
  });

  async function requireSession(request: FastifyRequest): Promise<void> {
    const raw = request.headers.authorization ?? '';
    const token = raw.startsWith('Bearer ') ? raw.slice(7).trim() : '';
    if (!token) throw fail('未登录或登录已过期，请先登录', Code.UNAUTHORIZED);
    const found = await findSession(db, token);
    if (!found.ok) throw fail('登录状态已过期，请重新登录', Code.UNAUTHORIZED);
  }

  /** No year after ADMISSION_AS_OF is read (server/volunteer/asOf.ts); the default year is the newest loaded one. */
  const yearCap = () => admissionAsOf() ?? 9999;
  const newestYear = async (table: 'gkScoreSegment' | 'gkAdmissionLine') => {
    const r = await db
      .selectFrom(table)
      .select((eb) => eb.fn.max('year').as('year'))
      .where('examProvince', '=', PROVINCE)
      .where('year', '<=', yearCap())
      .executeTakeFirst();
    return Number(r?.year ?? 0);
  };

  /** The years and tracks there is data for (the site's selectors). */
  app.get('/toolbox/api/meta', async (request) => {
    await requireSession(request);
    const years = await db
      .selectFrom('gkScoreSegment')
      .select(['year', 'track'])
      .where('examProvince', '=', PROVINCE)
      .where('year', '<=', yearCap())
      .groupBy(['year', 'track'])
      .orderBy('year', 'desc')
      .execute();
    return ok({ province: PROVINCE, years });
  });

  /** 一分一段: the cumulative rank at a score, or the whole table when no score is given. */
  app.get<{ Querystring: { year?: number; track?: string; score?: number } }>(
    '/toolbox/api/score-segment',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            year: { type: 'integer', title: '年份' },
            track: { type: 'string', title: '科类', maxLength: 10 },
            score: { type: 'integer', title: '分数', minimum: 0, maximum: 900 },
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      const { track = '综合', score } = request.query;
      const year = request.query.year ?? (await newestYear('gkScoreSegment'));
      if (year > yearCap()) throw fail(`暂无${PROVINCE}${year}年${track}的一分一段数据`);
      const rows = await db
        .selectFrom('gkScoreSegment')
        .select(['score', 'cumulativeRank'])
        .where('examProvince', '=', PROVINCE)
        .where('year', '=', year)
        .where('track', '=', track)
        .orderBy('score', 'desc')
        .execute();
      if (!rows.length) throw fail(`暂无${PROVINCE}${year}年${track}的一分一段数据`);
      // Per-score count = this row's cumulative rank minus the one above it (one score per segment).
      const table = rows.map((r, i) => ({
        score: r.score,
        count: r.cumulativeRank - (i > 0 ? rows[i - 1].cumulativeRank : 0),
        cumulativeRank: r.cumulativeRank,
      }));
      if (score === undefined) return ok({ year, track, rows: table });
      const exact = table.find((r) => r.score === score);
      if (exact) return ok({ year, track, ...exact, exact: true });
      const top = table[0];
      const bottom = table[table.length - 1];
      if (score > top.score)
        return ok({ year, track, score, count: 0, cumulativeRank: top.cumulativeRank, exact: false, note: `高于表中最高分 ${top.score}，按最高分位次计` });
      if (score < bottom.score)
        return ok({
          year,
          track,
          score,
          count: 0,
          cumulativeRank: bottom.cumulativeRank,
          exact: false,
          note: `低于表中最低分 ${bottom.score}，按最低分累计人数计`,
        });
      // Scores nobody got are missing from the table: the rank is that of the next higher score present.
      const above = [...table].reverse().find((r) => r.score > score);
      return ok({
        year,
        track,
        score,
        count: 0,
        cumulativeRank: above?.cumulativeRank ?? top.cumulativeRank,
        exact: false,
        note: '本分数无考生，按上一分数段计',
      });
    },
  );

  /** 批次线. */
  app.get('/toolbox/api/batch-lines', async (request) => {
    await requireSession(request);
    const rows = await db
      .selectFrom('gkBatchLine')
      .select(['year', 'track', 'batch', 'minScore'])
      .where('examProvince', '=', PROVINCE)
      .orderBy('year', 'desc')
      .orderBy('minScore', 'desc')
      .execute();
    return ok({ province: PROVINCE, rows });
  });

  /** 同分去向: schools and majors whose lowest admitted score equals (or is within ±range of) the score. */
  app.get<{ Querystring: { year?: number; score: number; range?: number } }>(
    '/toolbox/api/same-score',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['score'],
          properties: {
            year: { type: 'integer', title: '年份' },
            score: { type: 'integer', title: '分数', minimum: 0, maximum: 900 },
            range: { type: 'integer', title: '分差范围', minimum: 0, maximum: 5 },
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      const { score, range = 0 } = request.query;
      const year = request.query.year ?? (await newestYear('gkAdmissionLine'));
      if (year > yearCap()) throw fail(`暂无${PROVINCE}${year}年的投档数据`);
      const rows = await db
        .selectFrom('gkAdmissionLine as l')
        .leftJoin('gkSchool as s', (j) => j.onRef('s.schoolCode', '=', 'l.schoolCode').onRef('s.examProvince', '=', 'l.examProvince'))
        .select(['l.schoolCode', 's.name as schoolName', 's.province', 's.city', 'l.majorName', 'l.minScore', 'l.minRank'])
        .where('l.examProvince', '=', PROVINCE)
        .where('l.year', '=', year)
        .where('l.majorName', 'is not', null)
        .where('l.minScore', '>=', score - range)
        .where('l.minScore', '<=', score + range)
        .orderBy('l.minScore', 'desc')
        .orderBy('l.minRank', 'asc')
        .limit(500)
        .execute();
      return ok({ year, score, range, total: rows.length, rows });
    },
  );

  /** 院校分数线 / 院校库 / 双一流: schools by name, region or tag, with their school-level line when present. */
  app.get<{ Querystring: { name?: string; province?: string; tag?: string; pageNum?: number; pageSize?: number } }>(
    '/toolbox/api/schools',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            name: { type: 'string', title: '院校名称', maxLength: 40 },
            province: { type: 'string', title: '所在省份', maxLength: 20 },
            tag: { type: 'string', title: '院校标签', enum: ['985', '211', '双一流', ''] },
            pageNum: { type: 'integer', title: '页码', minimum: 1, default: 1 },
            pageSize: { type: 'integer', title: '每页条数', minimum: 1, maximum: 100, default: 20 },
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      const { name, province, tag, pageNum = 1, pageSize = 20 } = request.query;
      let q = db
        .selectFrom('gkSchool as s')
        .leftJoin('gkAdmissionLine as l', (j) =>
          j.onRef('l.schoolCode', '=', 's.schoolCode').onRef('l.examProvince', '=', 's.examProvince').on('l.majorName', 'is', null),
        )
        .where('s.examProvince', '=', PROVINCE);
      if (name?.trim()) q = q.where(contains('s.name', name.trim()));
      if (province?.trim()) q = q.where('s.province', '=', province.trim());
      if (tag) q = q.where(contains('s.tags', tag));
      const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await q
        .select(['s.schoolCode', 's.name', 's.province', 's.city', 's.tags', 'l.year', 'l.minScore', 'l.minRank'])
        .orderBy('l.minRank', 'asc')
        .orderBy('s.schoolCode', 'asc')
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize)
        .execute();
      return ok({ total: Number(total), rows });
    },
  );

  /** 专业分数线: major lines by school or major name. */
  app.get<{ Querystring: { school?: string; major?: string; year?: number; pageNum?: number; pageSize?: number } }>(
    '/toolbox/api/major-lines',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            school: { type: 'string', title: '院校名称', maxLength: 40 },
            major: { type: 'string', title: '专业名称', maxLength: 40 },
            year: { type: 'integer', title: '年份', minimum: 2000, maximum: 2100 },
            pageNum: { type: 'integer', title: '页码', minimum: 1, default: 1 },
            pageSize: { type: 'integer', title: '每页条数', minimum: 1, maximum: 100, default: 20 },
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      const { school, major, year, pageNum = 1, pageSize = 20 } = request.query;
      let q = db
        .selectFrom('gkAdmissionLine as l')
        .innerJoin('gkSchool as s', (j) => j.onRef('s.schoolCode', '=', 'l.schoolCode').onRef('s.examProvince', '=', 'l.examProvince'))
        .where('l.examProvince', '=', PROVINCE)
        .where('l.majorName', 'is not', null);
      if (school?.trim()) q = q.where(contains('s.name', school.trim()));
      if (major?.trim()) q = q.where(contains('l.majorName', major.trim()));
      if (year) q = q.where('l.year', '=', year);
      q = q.where('l.year', '<=', yearCap());
      const { total } = await q.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const rows = await q
        .select(['s.schoolCode', 's.name as schoolName', 'l.year', 'l.majorName', 'l.minScore', 'l.minRank', 'l.planCount'])
        .orderBy('l.minScore', 'desc')
        .orderBy('l.lineId', 'asc')
        .limit(pageSize)
        .offset((pageNum - 1) * pageSize)
        .execute();
      return ok({ total: Number(total), rows });
    },
  );

  const paging = {
    pageNum: { type: 'integer', title: '页码', minimum: 1, default: 1 },
    pageSize: { type: 'integer', title: '每页条数', minimum: 1, maximum: 100, default: 20 },
  } as const;
  const yearProp = { type: 'integer', title: '年份', minimum: 2000, maximum: 2100 } as const;
  const text = (title: string) => ({ type: 'string', title, maxLength: 40 }) as const;

  /** 招生计划 by batch: plan counts per year and batch, and the lines of one year with their plan counts. */
  app.get<{ Querystring: { year?: number; batch?: string; school?: string; major?: string; pageNum?: number; pageSize?: number } }>(
    '/toolbox/api/plans',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { year: yearProp, batch: { type: 'string', title: '批次', maxLength: 20 }, school: text('院校名称'), major: text('专业名称'), ...paging },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      return ok({ province: PROVINCE, ...(await planByBatch(db, PROVINCE, request.query)) });
    },
  );

  /** 院校分数线 by year: each school's lowest major line of the year. */
  app.get<{ Querystring: { year?: number; name?: string; province?: string; tag?: string; pageNum?: number; pageSize?: number } }>(
    '/toolbox/api/school-lines',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            year: yearProp,
            name: text('院校名称'),
            province: { type: 'string', title: '所在省份', maxLength: 20 },
            tag: { type: 'string', title: '院校标签', enum: ['985', '211', '双一流', ''] },
            ...paging,
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      return ok({ province: PROVINCE, ...(await schoolLinesByYear(db, PROVINCE, request.query)) });
    },
  );

  /** 选科查询: subject requirements, and whether the given subjects meet them. */
  app.get<{ Querystring: { year?: number; school?: string; major?: string; subjects?: string; onlyEligible?: boolean; pageNum?: number; pageSize?: number } }>(
    '/toolbox/api/subject-requirements',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            year: yearProp,
            school: text('院校名称'),
            major: text('专业名称'),
            subjects: { type: 'string', title: '选考科目', maxLength: 20 },
            onlyEligible: { type: 'boolean', title: '只看可报' },
            ...paging,
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      const { subjects: raw, ...rest } = request.query;
      const subjects = raw
        ? [
            ...new Set(
              raw
                .split(/[,，、]/)
                .map((x) => x.trim())
                .filter(Boolean),
            ),
          ]
        : [];
      const unknown = subjects.filter((x) => !(SUBJECTS as readonly string[]).includes(x));
      if (unknown.length) throw fail(`选考科目“${unknown.join('、')}”不正确，可选：${SUBJECTS.join('、')}`);
      if (subjects.length > 3) throw fail('选考科目最多 3 门');
      return ok({ province: PROVINCE, ...(await subjectRequirements(db, PROVINCE, { ...rest, subjects })) });
    },
  );

  /** 同分去向 over every imported year. */
  app.get<{ Querystring: { score: number; range?: number; year?: number; pageNum?: number; pageSize?: number } }>(
    '/toolbox/api/same-score-years',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['score'],
          properties: {
            score: { type: 'integer', title: '分数', minimum: 0, maximum: 900 },
            range: { type: 'integer', title: '分差范围', minimum: 0, maximum: 5 },
            year: yearProp,
            ...paging,
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      return ok({ province: PROVINCE, ...(await sameScoreYears(db, PROVINCE, request.query)) });
    },
  );

  registerSchoolTools(app, PROVINCE, requireSession);
  registerMajorTools(app, PROVINCE, requireSession);

  // Unknown tool API paths answer an envelope too (the site shows msg).
  app.get('/toolbox/api/*', async () => {
    throw fail('工具接口不存在', Code.NOT_FOUND);
  });
}

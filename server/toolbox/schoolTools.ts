import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EVALUATION_YEAR } from '../../common/volunteer/disciplineGrades.js';
import { BCUR_YEAR } from '../../common/volunteer/schoolReference.js';
import { fail, ok } from '../http/envelope.js';
import { evaluationByDiscipline, evaluationDisciplines, rankingList, referenceView, schoolMajorLines } from '../volunteer/index.js';

/**
 * The tool cabinet's school tools (issue 27, item 1): 院校排名 (软科 2026 主榜), 学科评估 (第四轮, 2017) and 院校库 (the
 * province's schools with their reference data; a row opens the school's 院校百科 view). The reference data is
 * server/volunteer/reference.ts, reached through the volunteer facade; the routes follow the others of routes.ts
 * (session required, bad input answers a Chinese message).
 */
export function registerSchoolTools(app: FastifyInstance, province: string, requireSession: (request: FastifyRequest) => Promise<void>) {
  const db = app.db.kysely;
  const paging = {
    pageNum: { type: 'integer', title: '页码', minimum: 1, default: 1 },
    pageSize: { type: 'integer', title: '每页条数', minimum: 1, maximum: 100, default: 20 },
  } as const;
  const text = (title: string, maxLength = 40) => ({ type: 'string', title, maxLength }) as const;

  const keyOf = (name: string) => name.replace(/（/g, '(').replace(/）/g, ')');

  /**
   * The province's schools by normalised name → first 院校代码, so a ranked school can open its view. Read per call
   * (about 1,100 rows): an import may add schools at any time.
   */
  const codeByName = async () => {
    const rows = await db.selectFrom('gkSchool').select(['schoolCode', 'name']).where('examProvince', '=', province).orderBy('schoolCode').execute();
    const map = new Map<string, string>();
    for (const r of rows) {
      const key = keyOf(r.name);
      if (!map.has(key)) map.set(key, r.schoolCode);
    }
    return map;
  };

  /** 院校排名: 软科中国大学排名 2026 主榜, filtered by province, category, tag or name, paged. */
  app.get<{ Querystring: { province?: string; category?: string; tag?: string; keyword?: string; pageNum?: number; pageSize?: number } }>(
    '/toolbox/api/ranking',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            province: text('所在省份', 20),
            category: text('院校类型', 10),
            tag: { type: 'string', title: '院校标签', enum: ['985', '211', '双一流', ''] },
            keyword: text('院校名称'),
            ...paging,
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      const { pageNum, ...q } = request.query;
      const list = rankingList({ ...q, page: pageNum });
      const byName = await codeByName();
      return ok({ ...list, rows: list.rows.map((r) => ({ ...r, schoolCode: byName.get(keyOf(r.name)) ?? null })) });
    },
  );

  /** 学科评估: the 一级学科 of the fourth round with how many schools were published in each. */
  app.get('/toolbox/api/evaluation-disciplines', async (request) => {
    await requireSession(request);
    return ok({ year: EVALUATION_YEAR, disciplines: evaluationDisciplines() });
  });

  /** 学科评估 by discipline: the schools graded in one 一级学科, best grade first, optionally one grade. */
  app.get<{ Querystring: { discipline: string; grade?: string; pageNum?: number; pageSize?: number } }>(
    '/toolbox/api/evaluation',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['discipline'],
          properties: {
            discipline: { type: 'string', title: '学科代码', pattern: '^\\d{4}$' },
            grade: { type: 'string', title: '评估等级', enum: ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', ''] },
            ...paging,
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      const { discipline, grade, pageNum, pageSize = 50 } = request.query;
      const found = evaluationByDiscipline(discipline, { grade: grade || undefined, page: pageNum, pageSize });
      if (!found) throw fail(`没有代码为 ${discipline} 的一级学科评估结果`);
      const byName = await codeByName();
      return ok({ ...found, rows: found.rows.map((r) => ({ ...r, schoolCode: byName.get(keyOf(r.school)) ?? null })) });
    },
  );

  /** 学科评估 by school: the grades of each school whose name holds the keyword (at most 10 schools). */
  app.get<{ Querystring: { name: string } }>(
    '/toolbox/api/school-evaluation',
    { schema: { querystring: { type: 'object', required: ['name'], properties: { name: { ...text('院校名称'), minLength: 2 } } } } },
    async (request) => {
      await requireSession(request);
      const kw = keyOf(request.query.name.trim());
      if (kw.length < 2) throw fail('请输入至少 2 个字的院校名称');
      const byName = await codeByName();
      // The catalogue's names first (campuses find their university); an exact name is tried even when it recruits
      // nowhere in the province (中央音乐学院).
      const names = [...new Set([...(byName.has(kw) ? [kw] : []), ...[...byName.keys()].filter((n) => n.includes(kw)), kw])];
      const schools = names
        .map((name) => ({ name, schoolCode: byName.get(name) ?? null, ...referenceView(name) }))
        .filter((s) => s.evaluation.list.length > 0)
        // A campus found beside its university (北京大学医学部 with 北京大学) would repeat the same grades.
        .filter((s, _, all) => !s.campusOf || !all.some((o) => o.name === s.campusOf))
        .slice(0, 10)
        .map(({ name, schoolCode, evaluation, campusOf }) => ({ name, schoolCode, campusOf, ...evaluation }));
      return ok({ year: EVALUATION_YEAR, keyword: request.query.name.trim(), schools });
    },
  );

  /** 院校库: the province's schools with 软科 rank, category, 双一流 and A+ counts; by name, province or tag, paged. */
  app.get<{ Querystring: { name?: string; province?: string; tag?: string; pageNum?: number; pageSize?: number } }>(
    '/toolbox/api/school-library',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            name: text('院校名称'),
            province: text('所在省份', 20),
            tag: { type: 'string', title: '院校标签', enum: ['985', '211', '双一流', ''] },
            ...paging,
          },
        },
      },
    },
    async (request) => {
      await requireSession(request);
      const { name, province: where, tag, pageNum = 1, pageSize = 20 } = request.query;
      let q = db.selectFrom('gkSchool').select(['schoolCode', 'name', 'province', 'city', 'tags', 'level', 'ownership']).where('examProvince', '=', province);
      if (where?.trim()) q = q.where('province', '=', where.trim());
      const kw = name?.trim() ? keyOf(name.trim()) : '';
      const rows = (await q.orderBy('schoolCode').execute())
        .filter((s) => !kw || keyOf(s.name).includes(kw))
        .map((s) => {
          const ref = referenceView(s.name);
          // Tags: the 2026 ranking's (双一流/985/211) where the school is ranked, else the catalogue's own.
          const tags = ref.bcur?.tags.length ? ref.bcur.tags : (s.tags ?? '').split('|').filter(Boolean);
          return {
            schoolCode: s.schoolCode,
            name: s.name,
            province: s.province,
            city: s.city,
            level: s.level,
            ownership: s.ownership,
            tags,
            rank: ref.bcur?.rank ?? null,
            rankNumeric: ref.bcur?.rankNumeric ?? null,
            category: ref.bcur?.category ?? null,
            doubleFirstClass: ref.doubleFirstClass ? ref.doubleFirstClass.disciplines.length || '自主确定' : null,
            aPlus: ref.evaluation.list.filter((e) => e.grade === 'A+').length,
            evaluated: ref.evaluation.list.length,
            campusOf: ref.campusOf,
          };
        })
        .filter((s) => !tag || s.tags.includes(tag))
        // Ranked schools by rank, then the 500+ band, then the unranked, each by code.
        .sort((a, b) => (a.rankNumeric ?? (a.rank ? 9998 : 9999)) - (b.rankNumeric ?? (b.rank ? 9998 : 9999)) || a.schoolCode.localeCompare(b.schoolCode));
      const start = (pageNum - 1) * pageSize;
      return ok({ province, rankingYear: BCUR_YEAR, total: rows.length, rows: rows.slice(start, start + pageSize) });
    },
  );

  /** One school's 院校百科 view: profile, reference data, and its lines in the province by programme over the years. */
  app.get<{ Querystring: { schoolCode: string } }>(
    '/toolbox/api/school-profile',
    { schema: { querystring: { type: 'object', required: ['schoolCode'], properties: { schoolCode: text('院校代码', 20) } } } },
    async (request) => {
      await requireSession(request);
      const history = await schoolMajorLines(db, { schoolCode: request.query.schoolCode, province });
      return ok({ province, school: history.school, reference: referenceView(history.school.name), history });
    },
  );
}

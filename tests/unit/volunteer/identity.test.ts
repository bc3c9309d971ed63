// @vitest-environment node
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../server/db/seed/admission.js';
import {
  genericNoteItems,
  lineIdentity,
  majorIdentity,
  NOTE_RENAMES,
  normaliseText,
  RENAMES,
  SCHOOL_NOTE_RENAMES,
  splitName,
} from '../../../server/volunteer/engine/identity.js';

/**
 * Line identity across years (server/volunteer/engine/identity.ts, issue 23): a school's lines of two years are one
 * programme when their normalised major names agree — never by 专业代号. Every pair below is printed in the real
 * Shandong 投档表 (server/db/seed/data/gaokao-shandong/toudang-YYYY.csv) at the school and in the years it names; the
 * test fails if a pair is not in the data.
 */

const DATA = new URL('../../../server/db/seed/data/gaokao-shandong/', import.meta.url);
const YEARS = fs
  .readdirSync(DATA)
  .map((f) => /^toudang-(\d{4})\.csv$/.exec(f)?.[1])
  .filter((y): y is string => y != null)
  .map(Number)
  .sort((a, b) => a - b);

interface Line {
  year: number;
  schoolCode: string;
  schoolName: string;
  major: string;
}
const LINES = new Map<number, Line[]>(
  YEARS.map((year) => [
    year,
    parseCsv(fs.readFileSync(new URL(`toudang-${year}.csv`, DATA), 'utf8')).map((r) => ({
      year,
      schoolCode: r.schoolCode,
      schoolName: r.schoolName,
      major: r.major,
    })),
  ]),
);
const idOf = (l: { schoolCode: string; major: string }) => lineIdentity({ schoolCode: l.schoolCode, majorName: l.major });

/** The printed line of a school in a year (school code and name as the table prints them). */
function printed(school: string, year: number, major: string): Line {
  const [code, name] = school.split(' ');
  const line = LINES.get(year)?.find((l) => l.schoolCode === code && l.major === major);
  if (!line) throw new Error(`${school} ${year}: no line printed as ${major}`);
  expect(line.schoolName).toBe(name);
  return line;
}

type Pair = [school: string, older: [number, string], newer: [number, string], why: string];

/** Pairs of one programme under two printed names: they must share an identity. */
const SAME: Pair[] = [
  ['A055 南开大学', [2023, '理科试验班类(物质科学与可持续发展)'], [2024, '理科试验班(物质科学与可持续发展)'], '类 of the name'],
  ['A445 山东师范大学', [2025, '金融学'], [2026, '金融学类'], '类 of the name: 大类招生 and the major of the same name'],
  ['A427 济南大学', [2025, '数学与应用数学(师范兼非师范)'], [2026, '数学与应用数学(师范兼非师范类)'], '类 of a note'],
  ['A489 长江大学', [2021, '历史学(师范类)'], [2022, '历史学(师范)'], '类 of a note'],
  ['A427 济南大学', [2024, '思想政治教育(师范类，地方专项计划)'], [2025, '思想政治教育(地方专项计划，师范类)'], 'order of the notes'],
  ['A019 中国农业大学', [2025, '动物科学(伴侣动物方向)'], [2026, '动物科学(伴侣动物)'], '…方向 dropped'],
  ['A034 中央财经大学', [2025, '金融科技(北航计算机联培项目)'], [2026, '金融科技(北航计算机联培)'], '…项目 dropped'],
  ['A384 厦门大学', [2025, '经济学类(含双学士学位项目)'], [2026, '经济学类(含双学士学位项目选拔)'], '…选拔 added'],
  ['A732 兰州交通大学', [2025, '交通运输(本科拔尖人才联合培养计划)'], [2026, '交通运输(本科拔尖人才联合培养)'], '…计划 dropped'],
  ['A426 青岛科技大学', [2022, '高分子材料与工程(招收塑料工程方向，地方专项计划)'], [2023, '高分子材料与工程(塑料工程方向，地方专项计划)'], '招收… dropped'],
  ['A026 北京中医药大学', [2025, '中医学(5+3一体化，卓越中医儿科班)'], [2026, '中医学(卓越中医儿科班5+3一体化)'], '5+3一体化 written into the note'],
  ['H335 浙江大学医学院', [2024, '临床医学(5+3一体化培养)'], [2025, '临床医学(5+3一体化)'], '5+3一体化培养 = 5+3一体化'],
  ['A760 新疆医科大学', [2025, '临床医学(5+3一体化，儿科学)'], [2026, '临床医学(“5+3一体化”儿科学)'], 'quotes'],
  ['A610 四川大学', [2022, '临床医学(五年)'], [2023, '临床医学(五年制)'], '学制 wording'],
  ['A486 武汉大学', [2023, '临床医学(八年制)'], [2024, '临床医学(8年)'], '学制 wording'],
  ['H001 北京大学医学部', [2024, '临床医学(本博连读)'], [2025, '临床医学(八年制本博连读)'], '本博连读 = 八年制 (NOTE_RENAMES)'],
  ['A663 贵州师范大学', [2024, '旅游管理(3加1培养模式)'], [2025, '旅游管理(3+1培养模式)'], '3加1 = 3+1'],
  [
    'A452 临沂大学',
    [2021, '制药工程(校企合作，与鲁南制药集团合作)'],
    [2022, '制药工程(校企合作，与鲁南制药集团股份有限公司合作)'],
    'legal form of the partner company',
  ],
  [
    'A452 临沂大学',
    [2021, '文化产业管理(校企合作，与腾讯（山东）企鹅新媒体学院合作)'],
    [2022, '文化产业管理(校企合作，与腾讯山东企鹅新媒体学院合作)'],
    'full-width brackets inside a note',
  ],
  [
    'B067 潍坊学院',
    [2022, '自动化(校企合作，与潍柴控股公司合作共建产业学院)'],
    [2023, '自动化(校企合作，与潍柴控股集团有限公司合作，共建产业学院)'],
    'a partner note run into the next note',
  ],
  ['A435 青岛农业大学', [2021, '英语(校企合作，与青岛英谷教育合作)'], [2022, '英语(校企合作，与青岛英谷教育科技公司合作)'], 'partner renamed (NOTE_RENAMES)'],
  ['Y001 山东大学', [2025, '预防医学(非西藏生源定向西藏就业，五年制)'], [2026, '预防医学(五年制，非西藏生定藏就业)'], 'one 定向 note reworded (NOTE_RENAMES)'],
  [
    'A533 中南大学',
    [2025, '材料科学与工程(中外合作办学)(中南大学和蒙纳士大学中外合作办学'],
    [2026, '材料科学与工程(中外合作办学)(中南大学和蒙纳士大学中外合作办学项'],
    'a note cut off at two places (SCHOOL_NOTE_RENAMES)',
  ],
  ['A110 中北大学', [2025, '测控技术与仪器(工程精英班)'], [2026, '测控技术与仪器(工程拔尖创新人才班)'], 'honours class renamed (SCHOOL_NOTE_RENAMES)'],
  [
    'A434 山东农业大学',
    [2022, '会计学(中外合作办学)(中德合作)'],
    [2023, '会计学(中外合作办学)(与德国埃森经济管理应用技术大学合作)'],
    'the foreign partner named (SCHOOL_NOTE_RENAMES)',
  ],
  [
    'A424 山东科技大学',
    [2022, '通信工程(中外合作办学)(就读地点济南，只提供英语教学、其他语种慎'],
    [2023, '通信工程(中外合作办学)(就读地点济南，只提供英语教学)'],
    'advice dropped, cut off (SCHOOL_NOTE_RENAMES)',
  ],
  ['A011 北京工商大学', [2025, '应用化学(日化方向)'], [2026, '应用化学(日化创新实验班)'], 'one line under two wordings (SCHOOL_NOTE_RENAMES)'],
];

/** Pairs that look alike but are different choices in the official system: they must not share an identity. */
const APART: Pair[] = [
  ['A004 北京交通大学', [2025, '经济管理试验班'], [2026, '经济管理试验班(高校专项计划)'], '高校专项计划 (who may fill it)'],
  ['A426 青岛科技大学', [2021, '轻化工程'], [2022, '轻化工程(地方专项计划)'], '地方专项计划'],
  ['A075 河北大学', [2021, '广告学'], [2022, '广告学(中外合作办学)'], '中外合作办学 (fees, degree)'],
  ['A225 东北林业大学', [2021, '数学与应用数学(师范类)'], [2022, '数学与应用数学'], '师范'],
  ['A753 宁夏师范学院', [2021, '统计学'], [2022, '统计学(非师范)'], '非师范'],
  ['A427 济南大学', [2024, '数学与应用数学(师范类)'], [2025, '数学与应用数学(师范兼非师范)'], '师范 ≠ 师范兼非师范'],
  ['A489 长江大学', [2021, '教育学类(含师范类)'], [2022, '教育学类(师范类)'], '含师范 ≠ 师范'],
  ['A452 临沂大学', [2025, '土木工程(非西藏生源定向西藏就业)'], [2026, '土木工程'], '定向'],
  ['A524 中南民族大学', [2021, '思想政治教育(只招少数民族考生)'], [2022, '思想政治教育'], '民族班'],
  ['A294 河海大学', [2022, '机械工程(常州校区)'], [2023, '机械工程'], 'campus'],
  ['A726 西北政法大学', [2025, '法学(民商法)'], [2026, '法学'], 'a direction of its own'],
  ['A110 中北大学', [2021, '计算机类'], [2022, '计算机科学与技术'], 'a category split into majors, not a rename'],
  [
    'D324 山东协和学院',
    [2021, '电子信息工程(校企合作，与无锡中兴教育管理有限公司合作)'],
    [2022, '电子信息工程(校企合作，与黄冈教育谷控股有限公司合作)'],
    'another partner company',
  ],
];

describe('line identity joins one programme across years, by name, never by 专业代号', () => {
  it.each(SAME)('%s: %j = %j (%s)', (school, [y1, m1], [y2, m2]) => {
    const older = printed(school, y1, m1);
    const newer = printed(school, y2, m2);
    expect(idOf(older)).toBe(idOf(newer));
  });

  it.each(APART)('%s: %j ≠ %j (%s)', (school, [y1, m1], [y2, m2]) => {
    const older = printed(school, y1, m1);
    const newer = printed(school, y2, m2);
    expect(idOf(older)).not.toBe(idOf(newer));
  });

  it('reads full-width and half-width brackets alike (湖南大学 本科预科班（招收边防军人子女）, 2022–2026)', () => {
    const line = printed('A532 湖南大学', 2026, '本科预科班（招收边防军人子女）');
    expect(idOf(line)).toBe(idOf({ schoolCode: 'A532', major: '本科预科班(招收边防军人子女)' }));
    expect(idOf(line)).toBe(idOf(printed('A532 湖南大学', 2022, '本科预科班（招收边防军人子女）')));
  });

  it("applies a school's own renames at that school only (卓越实验班 is 武汉理工大学's old name of 卓越英才班, not 北京化工大学's)", () => {
    const whut = [printed('A497 武汉理工大学', 2025, '通信工程(卓越实验班)'), printed('A497 武汉理工大学', 2026, '通信工程(卓越英才班)')];
    expect(idOf(whut[0])).toBe(idOf(whut[1]));
    const buct = printed('A010 北京化工大学', 2023, '法学(卓越实验班)');
    expect(idOf(buct)).toBe(`A010||${majorIdentity(buct.major)}`);
    expect(idOf(buct)).toContain('卓越实验班');
  });

  it('is school + normalised name: the school code and the province group code are part of it, the school name is not', () => {
    expect(lineIdentity({ schoolCode: 'A001', majorName: '理科试验班类(理科基础类专业)' })).toBe('A001||理科试验班(理科基础)');
    expect(lineIdentity({ schoolCode: 'A001', groupCode: '201', majorName: '理科试验班类' })).toBe('A001|201|理科试验班');
    expect(majorIdentity(null)).toBe('');
  });
});

/** The notes that make a line a different choice (who may fill it, fees, obligations, campus): as printed. */
const KINDS: Array<[string, RegExp]> = [
  ['高校专项', /高校专项/],
  ['地方专项', /地方专项/],
  ['国家专项', /国家专项/],
  ['中外合作', /中外合作/],
  ['公费', /公费/],
  ['定向', /定向|定藏/],
  ['预科', /预科/],
  ['民族', /民族班|少数民族|民族生/],
  ['走读', /走读/],
  ['校区', /校区/],
];
function kindsOf(name: string): string {
  const text = normaliseText(name).replace(/类/g, '');
  const kinds = KINDS.filter(([, re]) => re.test(text)).map(([k]) => k);
  // 师范, 师范兼非师范, 含师范, 非师范, 职教师范 are different notes: each counts as printed.
  const normal = text.match(/含职教师范|职教师范|师范兼非师范|含师范|非师范|师范/g) ?? [];
  return [...kinds, ...new Set(normal)].sort().join('+');
}

describe('on the whole 2021–2026 data', () => {
  it('every line joined to a line of the next year keeps the notes that make it a different choice', () => {
    const broken: string[] = [];
    for (const [i, year] of YEARS.entries()) {
      const next = LINES.get(YEARS[i + 1]);
      if (!next) continue;
      const byId = new Map<string, Line[]>();
      for (const l of next) byId.set(idOf(l), [...(byId.get(idOf(l)) ?? []), l]);
      for (const l of LINES.get(year) ?? []) {
        for (const n of byId.get(idOf(l)) ?? []) {
          if (kindsOf(l.major) !== kindsOf(n.major)) broken.push(`${l.schoolCode} ${year} ${l.major} → ${n.year} ${n.major}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('two lines of one school and year share an identity only when printed alike or but for the 类 of the name', () => {
    // The catalogue keeps such lines apart (two 专业代号); no rename may merge two different notes within a year.
    const merged: string[] = [];
    let shared = 0;
    for (const year of YEARS) {
      const byId = new Map<string, Line[]>();
      for (const l of LINES.get(year) ?? []) byId.set(idOf(l), [...(byId.get(idOf(l)) ?? []), l]);
      for (const group of byId.values()) {
        if (group.length < 2) continue;
        shared++;
        const forms = new Set(
          group.map((l) => {
            const { base, notes } = splitName(l.major);
            return `${base.replace(/类$/, '')}(${notes.join(')(')})`;
          }),
        );
        if (forms.size > 1) merged.push(`${group[0].schoolCode} ${year}: ${group.map((l) => l.major).join(' | ')}`);
      }
    }
    expect(shared).toBeGreaterThan(0); // the same name printed twice is real (two 专业代号)
    expect(merged).toEqual([]);
  });

  it('every rename entry is written as the generic rules leave a note, keeps what the line is, and is shown by the data', () => {
    const itemsAt = new Map<string, Set<string>>(); // school → notes after the generic rules, over all years
    const everywhere = new Set<string>();
    for (const lines of LINES.values()) {
      for (const l of lines) {
        const set = itemsAt.get(l.schoolCode) ?? new Set<string>();
        for (const item of genericNoteItems(splitName(l.major).notes)) {
          set.add(item);
          everywhere.add(item);
        }
        itemsAt.set(l.schoolCode, set);
      }
    }
    const check = (from: string, to: string, seen: Set<string>, where: string, map: ReadonlyMap<string, string>) => {
      expect(genericNoteItems([from]), `${where} ${from}`).toEqual([from]);
      expect(to, `${where} ${from}`).not.toBe(from);
      expect(seen.has(from), `${where}: ${from} is printed`).toBe(true);
      for (const part of to ? to.split(',') : []) {
        expect(genericNoteItems([part]), `${where} ${part}`).toEqual([part]);
        expect(seen.has(part), `${where}: ${part} is printed`).toBe(true);
        expect(map.has(part), `${where}: ${from} → ${part} is renamed once, not in a chain`).toBe(false);
      }
      expect(kindsOf(`(${to})`), `${where} ${from} → ${to}`).toBe(kindsOf(`(${from})`));
    };
    for (const [from, to] of NOTE_RENAMES) check(from, to, everywhere, 'NOTE_RENAMES', NOTE_RENAMES);
    for (const [code, map] of SCHOOL_NOTE_RENAMES) for (const [from, to] of map) check(from, to, itemsAt.get(code) ?? new Set(), code, map);
    for (const [from, to] of RENAMES) expect(kindsOf(to), from).toBe(kindsOf(from));
  });
});

// @vitest-environment node
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../server/db/seed/admission.js';
import { catalogueMajors } from '../../../server/volunteer/majorClass.js';
import { CLASS_DISCIPLINE, disciplineOfMajor, MAJOR_DISCIPLINE } from '../../../server/volunteer/majorDiscipline.js';

/** The hand-written map 专业类 / major → 一级学科 of the 第四轮学科评估 (server/volunteer/majorDiscipline.ts). */
const EVAL = parseCsv(fs.readFileSync(new URL('../../../server/db/seed/data/china-reference/discipline_eval_round4_2017.csv', import.meta.url), 'utf8'));
const evaluated = new Map(EVAL.map((r) => [r.discipline_code, r.discipline_name_zh]));
const majors = catalogueMajors();

describe('majorDiscipline', () => {
  it('names only evaluated disciplines, with their published names, and only catalogue classes and majors', () => {
    const classes = new Set(majors.map((m) => m.classCode));
    const codes = new Set(majors.map((m) => m.code.replace(/[TK]+$/, '')));
    for (const [cls, d] of CLASS_DISCIPLINE) {
      expect(classes.has(cls), cls).toBe(true);
      expect(evaluated.get(d.code), `${cls} → ${d.code}`).toBe(d.name);
    }
    for (const [code, d] of MAJOR_DISCIPLINE) {
      expect(codes.has(code), code).toBe(true);
      expect(evaluated.get(d.code), `${code} → ${d.code}`).toBe(d.name);
    }
  });

  it('maps 计算机类 to 0812 but 软件工程 to its own 0835, 临床医学 to 1002, and leaves 电子商务类 unmapped', () => {
    expect(disciplineOfMajor('0809', '080901')).toEqual({ code: '0812', name: '计算机科学与技术' });
    expect(disciplineOfMajor('0809', null)).toEqual({ code: '0812', name: '计算机科学与技术' });
    expect(disciplineOfMajor('0809', '080902')).toEqual({ code: '0835', name: '软件工程' });
    expect(disciplineOfMajor('1002', '100201K')).toEqual({ code: '1002', name: '临床医学' });
    expect(disciplineOfMajor('1208', '120801')).toBeNull();
    // A spread class has no grade as a class, only through its mapped majors.
    expect(disciplineOfMajor('0807', null)).toBeNull();
    expect(disciplineOfMajor('0807', '080703')).toEqual({ code: '0810', name: '信息与通信工程' });
  });
});

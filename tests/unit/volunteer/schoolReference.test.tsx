import type { SchoolReferenceView } from '@common/volunteer/schoolReference';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DoubleFirstClassPanel, EvaluationPanel, SchoolRank } from '@/modules/volunteer/school/SchoolReference';
import { renderInApp } from './harness';

/** The 院校百科 parts of 院校详情: every figure with its year, grades grouped with their meaning, nothing without data. */
const base: SchoolReferenceView = {
  bcur: { year: 2026, rank: '73', rankNumeric: 73, score: 316.3, category: '理工', province: '山东', tags: ['双一流', '211'] },
  doubleFirstClass: { year: 2022, round: 2, disciplines: ['地质资源与地质工程', '石油与天然气工程'], selfDetermined: false },
  evaluation: {
    year: 2017,
    round: '第四轮学科评估',
    note: '第四轮学科评估中，中国石油大学（北京）与中国石油大学（华东）联合参评，结果以「中国石油大学」公布',
    list: [
      { disciplineCode: '0820', disciplineName: '石油与天然气工程', grade: 'A+', meaning: '前2%或前2名' },
      { disciplineCode: '0818', disciplineName: '地质资源与地质工程', grade: 'A+', meaning: '前2%或前2名' },
      { disciplineCode: '0817', disciplineName: '化学工程与技术', grade: 'B+', meaning: '10%–20%' },
    ],
  },
  campusOf: null,
};

describe('院校百科 panels', () => {
  it('shows the rank with its year, and the band without 第', () => {
    renderInApp(<SchoolRank reference={base} />);
    expect(screen.getByText('软科中国大学排名 2026：第 73 名')).toBeTruthy();
    renderInApp(<SchoolRank reference={{ ...base, bcur: { ...base.bcur!, rank: '500+', rankNumeric: null, score: null } }} />);
    expect(screen.getByText('软科中国大学排名 2026：500+ 名')).toBeTruthy();
  });

  it('groups the grades with their meaning and shows the joint-entry note', () => {
    const { container } = renderInApp(<EvaluationPanel reference={base} />);
    expect(screen.getByText('第四轮学科评估（2017年）：公布 3 个一级学科')).toBeTruthy();
    const aPlus = container.querySelector('[data-grade="A+"]') as HTMLElement;
    expect(within(aPlus).getByText('前2%或前2名')).toBeTruthy();
    expect(
      within(aPlus)
        .getAllByText(/工程$/)
        .map((e) => e.textContent),
    ).toEqual(['石油与天然气工程', '地质资源与地质工程']);
    expect(within(container.querySelector('[data-grade="B+"]') as HTMLElement).getByText('化学工程与技术')).toBeTruthy();
    expect(container.querySelector('[data-grade="A"]')).toBeNull();
    expect(screen.getByText(/联合参评/)).toBeTruthy();
  });

  it('names the 双一流 round and year, says 自主确定 for 北大/清华, and renders nothing without data', () => {
    renderInApp(<DoubleFirstClassPanel reference={{ ...base, campusOf: '中国石油大学(华东)' }} />);
    expect(screen.getByText('第二轮“双一流”建设学科（2022年公布）')).toBeTruthy();
    expect(screen.getByText('石油与天然气工程')).toBeTruthy();
    expect(screen.getByText('以下为中国石油大学(华东)的数据（本校为其校区或院部）。')).toBeTruthy();
    renderInApp(<DoubleFirstClassPanel reference={{ ...base, doubleFirstClass: { year: 2022, round: 2, disciplines: [], selfDetermined: true } }} />);
    expect(screen.getByText('自主确定建设学科并自行公布（教育部名单未列出具体学科）。')).toBeTruthy();
    const empty = renderInApp(
      <>
        <DoubleFirstClassPanel reference={{ ...base, doubleFirstClass: null }} />
        <EvaluationPanel reference={{ ...base, evaluation: { ...base.evaluation, list: [] } }} />
      </>,
    );
    expect(empty.container.textContent).toBe('');
  });
});

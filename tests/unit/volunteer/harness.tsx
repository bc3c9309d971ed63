import { cleanup } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { repeatGuard } from '@/api/repeatGuard';
import { setFeedback } from '@/api/request';
import type { ChanceRow, PlanItem, StudentInfo, Tier } from '@/api/volunteer';
import { sessionStore } from '@/session/sessionStore';
import { useRealKeys } from '../api/keys';
import { FeedbackBridge } from '../feedback';
import { renderUi } from '../render';

/** jsdom lacks what antd's responsive grid and tables ask the window for. */
function polyfill() {
  if (!window.matchMedia) {
    window.matchMedia = ((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    })) as unknown as typeof window.matchMedia;
  }
  if (!('ResizeObserver' in window)) {
    (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
  if (!Element.prototype.scrollTo) Element.prototype.scrollTo = () => undefined;
}

/** An msw server answering with signed-client calls (real keys) and the session of an expert. */
export function useVolunteerServer() {
  const server = setupServer();
  const keys = useRealKeys();
  beforeAll(() => {
    polyfill();
    server.listen({ onUnhandledRequest: 'error' });
  });
  beforeEach(() => {
    repeatGuard.reset();
    setFeedback(null);
    sessionStore.set({
      roles: ['expert'],
      permissions: ['volunteer:filling:list', 'volunteer:plan:save', 'volunteer:plan:submit', 'volunteer:plan:list', 'volunteer:student:edit'],
      loaded: true,
    });
  });
  afterEach(() => {
    cleanup();
    server.resetHandlers();
    sessionStore.reset();
  });
  afterAll(() => {
    server.close();
    keys.cleanup();
  });
  return server;
}

/** Inside a router and antd's App context (no motion: ../render.tsx), the http layer's toasts included. */
export const renderInApp = (ui: ReactElement) =>
  renderUi(
    <>
      <FeedbackBridge />
      <MemoryRouter>{ui}</MemoryRouter>
    </>,
  );

/** Answers a POST (or GET) under the console's prefixes with a RuoYi envelope. */
export const ok = (data: unknown, extra: Record<string, unknown> = {}) => HttpResponse.json({ code: 200, msg: '操作成功', data, ...extra });
export { HttpResponse, mock };

export const student: StudentInfo = {
  studentId: 1,
  name: '张三',
  mobile: '13900000001',
  province: '山东',
  examYear: 2025,
  score: 600,
  rank: 25061,
  rankFlag: 'exact',
  subjects: [1, 2, 3],
  subjectNames: '物理/化学/生物',
  ownerId: 3,
  ownerName: '李老师',
  planStatus: 'none',
  planStatusName: '未填报',
  planVersion: 0,
  planItemCount: 0,
  version: 1,
  createTime: 0,
  updateTime: 0,
  preferences: { regions: ['山东'], levels: ['211'], majors: ['计算机'], tuitionCap: null },
  remark: null,
  plan: null,
};

const PROB: Record<Tier, number> = { 冲: 0.2, 稳: 0.6, 保: 0.95 };

/** A table row of the acceptance-rate answer, with only the fields the screens under test read. */
export function row(lineId: number, schoolName: string, majorName: string, tier: Tier, schoolCode = `S${lineId}`): ChanceRow {
  return {
    lineId,
    schoolCode,
    schoolName,
    province: '北京',
    city: '北京',
    tags: ['211'],
    level: null,
    isPublic: null,
    majorName,
    groupCode: null,
    minScore: 600,
    minRank: 25000,
    probability: PROB[tier],
    probabilityText: `${(PROB[tier] * 100).toFixed(2)}%`,
    tier,
    explanation: `按位次法：2025年最低位次 25000（1年数据），估计录取位次 25000，σ=1250，你的位次 25061，录取概率 ${(PROB[tier] * 100).toFixed(2)}%，${tier}`,
  } as ChanceRow;
}

/** A saved plan item. */
export const item = (r: ChanceRow, sort: number) => ({ ...r, sort, obey: null, stale: false, staleReason: null }) as PlanItem & Pick<ChanceRow, 'schoolName'>;

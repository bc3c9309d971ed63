import type { FastPath } from '@common/home/fastPath';
import type { HelpItem } from '@common/home/help';
import type { Figure, Statistics } from '@common/home/statistics';
import type { Tab } from '@common/home/tabs';
import type { TodoItem } from '@common/home/todo';
import type { VersionInfo } from '@common/home/versions';
import { get, post } from './request';

/** 首页 calls (server/home/routes.ts, docs/home.md) and the version info (server/home/versions.ts). */

export interface PlatformFigures {
  pv: number;
  todayPv: number;
  registerNum: number;
  todayRegistrations: number;
}

export interface HomeSummary {
  today: string;
  todo: TodoItem[];
  platform: PlatformFigures;
  allStores: boolean;
}

export const getHomeSummary = () => get<HomeSummary>('/dev-api/api/index/index');

export const FIGURE_TITLES: Record<Figure, string> = {
  newCustomers: '新增客户',
  activatedCards: '激活会员卡',
  submittedPlans: '提交方案',
  approvedPlans: '通过方案',
  revenue: '收入（元）',
  registrations: '注册人数',
  pageViews: '访问量',
};

/**
 * Figures by day over [beginDate, endDate] (YYYY-MM-DD, China time, at most 366 days). Without dates the server
 * answers the last `days` days up to its today (the console's clock may be on another day).
 */
export const getStatistics = (beginDate: string, endDate: string, days?: number) =>
  get<Statistics>('/dev-api/api/index/indexv', beginDate && endDate ? { beginDate, endDate } : { days });

export const getFastPath = () => get<FastPath>('/dev-api/api/index/fastPath');
export const saveFastPath = (menuIds: number[]) => post<FastPath>('/dev-api/api/index/fastPath', { menuIds });

export interface TabRow {
  [key: string]: unknown;
}

/** Spec §9: the dashboard table shows page 1, size 30. */
export const getTabList = (tab: Tab) => get<{ tab: Tab; title: string; rows: TabRow[] }>('/dev-api/api/index/tabList', { tab, pageSize: 30 });

export type { VersionHistoryItem, VersionInfo } from '@common/home/versions';

export const getVersionInfo = () => get<VersionInfo>('/dev-api/api/index/systermUpdateList');

/** 帮助中心: published help articles, searched by title, keywords and category. */
export const getHelpArticles = (keyword: string) => get<HelpItem[]>('/dev-api/api/index/helpCenter', keyword ? { keyword } : {});

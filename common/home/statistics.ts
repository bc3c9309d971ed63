/**
 * 业务统计 of 首页 (GET /dev-api/api/index/indexv, docs/home.md): figures by China-time day. server/home/ computes
 * them (the stored ones per day and store in home_daily, page views from the counter); the console charts them.
 */

/** The figures stored per day and store (home_daily). */
export const FIGURES = ['newCustomers', 'activatedCards', 'submittedPlans', 'approvedPlans', 'revenue', 'registrations'] as const;
export type DailyFigure = (typeof FIGURES)[number];
export type DailyFigures = Record<DailyFigure, number>;

/** Every figure of the answer: the stored ones and 访问量 (page views, counted apart). */
export type Figure = DailyFigure | 'pageViews';
export type DayFigures = Record<Figure, number> & { date: string };

export interface Statistics {
  /** YYYY-MM-DD, China time. */
  beginDate: string;
  endDate: string;
  /** The stored figures, in their order. */
  figures: readonly DailyFigure[];
  days: DayFigures[];
  totals: Record<Figure, number>;
  allStores: boolean;
}

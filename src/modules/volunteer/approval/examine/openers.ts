import type { ExamineRow } from '@/api/volunteer';
import { createOpener } from '../opener';

/** 查看 (the plan drawer) and 记录 (the history dialog) of a 志愿审核 row. */
export const viewPlan = createOpener<ExamineRow>();
export const planHistory = createOpener<ExamineRow>();

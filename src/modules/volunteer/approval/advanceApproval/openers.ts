import type { Student } from '@/api/volunteer';
import { createOpener } from '../opener';

/** 批量分配 (the students chosen in 学生列表, and the list's refresh) and 查看学生 (an expert of 专家列表). */
export const distributing = createOpener<{ students: Student[]; refresh: () => void }>();
export const studentsOf = createOpener<number>();

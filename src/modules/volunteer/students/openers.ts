import type { StudentInfo } from '@/api/volunteer';
import { createOpener } from '../approval/opener';

/**
 * What the buttons of override.tsx (plain callbacks) ask of the list page (StudentListPage): the 学生信息 drawer, the
 * student form (新增学生, or 编辑 from the drawer), 填报 / 查看方案 and a file picked for 导入.
 */
export const studentDrawer = createOpener<number>();
export const studentForm = createOpener<{ student: StudentInfo | null }>();
export const studentFill = createOpener<number>();
export const studentImport = createOpener<File>();

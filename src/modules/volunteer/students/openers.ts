import type { StudentInfo } from '@/api/volunteer';
import { createOpener, type Opener } from '../approval/opener';

/**
 * What the buttons of override.tsx (plain callbacks) ask of the list page (StudentListPage): the 学生信息 drawer, the
 * student form (新增学生, or 编辑 from the drawer), 填报 / 查看方案 and a file picked for 导入.
 * A request names the resource of the page it came from: 学生志愿 and 志愿保存 are two pages of StudentListPage that
 * stay mounted side by side in their kept tabs, and only the page of that resource answers it.
 */
export interface PageRequest<T> {
  resource: string;
  value: T;
}

export const studentDrawer = createOpener<PageRequest<number>>();
export const studentForm = createOpener<PageRequest<{ student: StudentInfo | null }>>();
export const studentFill = createOpener<PageRequest<number>>();
export const studentImport = createOpener<PageRequest<File>>();

/** The open request of this resource's page, if any. */
export function usePageRequest<T>(opener: Opener<PageRequest<T>>, resource: string): T | null {
  const request = opener.use();
  return request?.resource === resource ? request.value : null;
}

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Expert, Student } from '@/api/volunteer';
import { DistributeDialog } from '@/modules/volunteer/approval/advanceApproval/DistributeDialog';
import { browserShims } from '../engine/helpers';
import { renderUi } from '../render';

/**
 * 领导审批 → 批量分配: an expert serves only the students of their own store (the server refuses another store's), so
 * the dialog offers only experts of the selected students' store and names the store; a selection spanning stores
 * is refused before 提交, not after.
 */

const student = (studentId: number, name: string, storeId: number, storeName: string) => ({ studentId, name, storeId, storeName }) as Student;
const expert = (userId: number, nickName: string, storeId: number, storeName: string): Expert => ({
  userId,
  userName: `e${userId}`,
  nickName,
  mobile: null,
  storeId,
  storeName,
  studentCount: 1,
  draftCount: 0,
  submittedCount: 0,
  approvedCount: 0,
  rejectedCount: 0,
});
const experts = [expert(3, '李老师', 1, '总部'), expert(6, '陈老师', 2, '济南门店'), expert(7, '周老师', 3, '青岛门店')];

function open(students: Student[]) {
  renderUi(<DistributeDialog open students={students} experts={experts} onClose={() => {}} onDone={() => {}} />);
  return screen.getByRole('dialog');
}

describe('批量分配', () => {
  beforeAll(browserShims);

  it('offers only the experts of the selected students’ store, each with the store', async () => {
    const dialog = open([student(1, '吴九', 2, '济南门店'), student(2, '郑十', 2, '济南门店')]);
    expect(within(dialog).getByText('分配给专家（济南门店）')).toBeTruthy();
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    await waitFor(() => expect(screen.getByText('陈老师 · 济南门店（现有 1 名学生）')).toBeTruthy());
    expect(screen.queryByText(/李老师/)).toBeNull();
    expect(screen.queryByText(/周老师/)).toBeNull();
  });

  it('refuses a selection of several stores before anything is sent', () => {
    const dialog = open([student(1, '吴九', 2, '济南门店'), student(3, '孙七', 1, '总部')]);
    expect(within(dialog).getByText('所选学生属于 2 个门店（济南门店、总部），专家只能服务本门店的学生；请按门店筛选后分别分配')).toBeTruthy();
    expect(
      within(dialog)
        .getByRole('button', { name: /分\s*配/ })
        .hasAttribute('disabled'),
    ).toBe(true);
  });
});

import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { BaseRecord } from '@refinedev/core';
import { Button } from 'antd';
import { createElement } from 'react';
import { downloadPlanExcel, downloadPlanPdf, downloadStudentTemplate } from '@/api/volunteer';
import type { ResourceOverride, RowAction, SearchInputProps } from '@/engine/resource';
import { ExpertSelect } from '../shared/ExpertSelect';
import { formatRank } from '../shared/format';
import { studentDrawer, studentFill, studentForm, studentImport } from './openers';

/**
 * 学生志愿 (schemas/volunteer/vol_student.json) and 志愿保存 (vol_saved_plan.json): the engine lists the students; what
 * the JSON cannot say is here — the name opens the 学生信息 drawer, 详情 too; 填报 (查看方案 once the plan is submitted
 * or approved) opens the filling page. 学生志愿 has 新增学生, 导入 (an .xlsx from the template) and 下载导入模板 in the
 * toolbar; 志愿保存 has the plan as PDF / Excel per student. The dialogs live in StudentListPage; every request names
 * the resource whose page should answer it (openers.ts).
 */
const dash = (v: unknown) => (v == null || v === '' ? '--' : String(v));
const locked = (r: BaseRecord) => r.planStatus === 'submitted' || r.planStatus === 'approved';
const fill = (resource: string, label: string, visible: (r: BaseRecord) => boolean): RowAction => ({
  key: label === '填报' ? 'fill' : 'viewPlan',
  label,
  permission: 'volunteer:filling:list',
  visible,
  onClick: (r) => studentFill.open({ resource, value: Number(r.studentId) }),
});

/** PDF / Excel of the student's plan (志愿保存): only once a plan is saved; download() shows its progress and errors. */
const planFile = (kind: 'pdf' | 'excel'): RowAction => ({
  key: kind,
  label: kind === 'pdf' ? 'PDF' : 'Excel',
  visible: (r) => r.planStatus !== 'none',
  onClick: (r) => (kind === 'pdf' ? downloadPlanPdf : downloadPlanExcel)(Number(r.studentId), String(r.name ?? '')).catch(() => undefined),
});

/** 导入: the file chooser opens within the click; the page uploads what was picked. */
function pickFile(resource: string) {
  const input = document.createElement('input');
  input.type = 'file';
  input.accept = '.xlsx';
  input.style.display = 'none';
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    input.remove();
    if (file) studentImport.open({ resource, value: file });
  });
  document.body.appendChild(input);
  input.click();
}

/** 负责专家 (leaders only, x-search.permission): the experts with their number of students. */
const ExpertSearchInput = ({ value, onChange }: SearchInputProps) => <ExpertSelect value={value as number | undefined} onChange={onChange} />;

/** The override of one of the two student lists; `saved` is 志愿保存 (PDF / Excel instead of the add / import toolbar). */
function studentList(resource: string, saved: boolean): ResourceOverride {
  const drawer = (r: BaseRecord) => studentDrawer.open({ resource, value: Number(r.studentId) });
  return {
    pages: { list: () => import('./StudentListPage') },
    cells: {
      name: (v, r) => createElement(Button, { type: 'link', size: 'small', style: { padding: 0 }, onClick: () => drawer(r) }, String(v ?? '')),
      mobile: dash,
      subjectNames: dash,
      score: dash,
      rank: (v) => formatRank(v as number | null),
      ownerName: dash,
    },
    searchFields: { ownerId: { input: ExpertSearchInput } },
    // 详情 and 填报 (or 查看方案) side by side in the row, as on the hand-written page.
    inlineRowActions: true,
    rowActions: [
      { key: 'show', label: '详情', onClick: drawer },
      fill(resource, '填报', (r) => !locked(r)),
      fill(resource, '查看方案', locked),
      ...(saved ? [planFile('pdf'), planFile('excel')] : []),
    ],
    toolbar: saved
      ? []
      : [
          {
            key: 'add',
            label: '新增学生',
            permission: 'volunteer:student:add',
            type: 'primary',
            icon: createElement(PlusOutlined),
            onClick: () => studentForm.open({ resource, value: { student: null } }),
          },
          {
            key: 'import',
            label: '导入',
            permission: 'volunteer:student:add',
            icon: createElement(UploadOutlined),
            onClick: () => pickFile(resource),
          },
          {
            key: 'template',
            label: '下载导入模板',
            permission: 'volunteer:student:add',
            icon: createElement(DownloadOutlined),
            onClick: () => downloadStudentTemplate().catch(() => undefined),
          },
        ],
  };
}

export const studentOverride = studentList('vol_student', false);
export const savedPlanOverride = studentList('vol_saved_plan', true);

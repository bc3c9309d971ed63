import { useInvalidate } from '@refinedev/core';
import { App } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { fillingHref, useViewPath, VIEW } from '../shared/useViewPath';
import { studentDrawer, studentFill, studentForm, usePageRequest } from './openers';
import { StudentDrawer } from './StudentDrawer';
import { StudentFormDialog } from './StudentFormDialog';
import { StudentImport } from './StudentImport';

/**
 * 学生志愿 (volunteer/index) and 志愿保存 (savevolunteer/index): the engine's list of the caller's students
 * (schemas/volunteer/vol_student.json, vol_saved_plan.json; a leader sees all, with the 负责专家 filter) and what its
 * buttons open (override.tsx): the 学生信息 drawer, 新增 / 编辑学生, 导入, and the filling page for a student.
 */
export default function StudentListPage({ resource }: EnginePageProps) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const fillingPath = useViewPath(VIEW.filling);
  const page = resource.name;
  const drawer = usePageRequest(studentDrawer, page);
  const editing = usePageRequest(studentForm, page);
  const filling = usePageRequest(studentFill, page);
  const [drawerKey, setDrawerKey] = useState(0);
  const refresh = useCallback(() => invalidate({ resource: resource.name, invalidates: ['list'] }), [invalidate, resource.name]);

  const fill = useCallback(
    (studentId: number) => {
      if (!fillingPath) message.warning('你没有「专家填报」菜单的权限，请联系管理员授权');
      else navigate(fillingHref(fillingPath, studentId));
    },
    [fillingPath, message, navigate],
  );
  useEffect(() => {
    if (filling == null) return;
    studentFill.close();
    fill(filling);
  }, [filling, fill]);

  return (
    <>
      <EntityList resource={resource} />
      <StudentDrawer
        studentId={drawer}
        refreshKey={drawerKey}
        onClose={() => studentDrawer.close()}
        onEdit={(s) => studentForm.open({ resource: page, value: { student: s } })}
        onFill={fillingPath ? (s) => fill(s.studentId) : undefined}
      />
      <StudentFormDialog
        open={editing != null}
        student={editing?.student ?? null}
        onClose={() => studentForm.close()}
        onSaved={() => {
          studentForm.close();
          setDrawerKey((k) => k + 1);
          refresh();
        }}
      />
      <StudentImport resource={page} onImported={refresh} />
    </>
  );
}

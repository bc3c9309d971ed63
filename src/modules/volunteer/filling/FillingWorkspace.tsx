import { Alert, Button, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { type FilterChoices, filterChoices, type ProvinceRules, provinceRules, type StudentInfo, studentInfo } from '@/api/volunteer';
import { setExpertPathText } from '@/layout/expertCrumb';
import { StudentFormDialog } from '../students/StudentFormDialog';
import { FillingBoard } from './FillingBoard';
import { GroupFillingBoard } from './groups/GroupFillingBoard';
import { StudentHeader } from './StudentHeader';

/**
 * The filling page for one student: loads the student, the province's rules (slot limit, per-group limit, mode) and
 * the filter choices, sets the 专家填报 breadcrumb while open, and hosts the board.
 */
export function FillingWorkspace({ studentId, onSwitch }: { studentId: number; onSwitch: (id: number) => void }) {
  const [student, setStudent] = useState<StudentInfo | null>(null);
  const [rules, setRules] = useState<ProvinceRules | null>(null);
  const [choices, setChoices] = useState<FilterChoices | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [editing, setEditing] = useState(false);
  const [refreshKey, setRefreshKey] = useState(0);

  useEffect(() => {
    let live = true;
    setError(null);
    (async () => {
      try {
        const s = await studentInfo(studentId);
        const r = await provinceRules(s.province);
        // The filter choices are the catalogue's (山东); a 院校专业组 province (zyType 2) has its own board.
        const c = r.zyType === 2 ? null : await filterChoices().catch(() => null);
        if (!live) return;
        setStudent(s);
        setRules(r);
        setChoices(c);
      } catch (e) {
        if (live) setError((e as Error).message || '加载失败');
      }
    })();
    return () => {
      live = false;
    };
  }, [studentId, attempt]);

  // The 专家填报 breadcrumb names the student while this page is shown (hidden tabs run the cleanup).
  useEffect(() => {
    if (!student) return;
    setExpertPathText(`${student.name}（${student.score ?? '--'}分）`);
    return () => setExpertPathText('');
  }, [student]);

  if (error) {
    return (
      <Alert
        type="error"
        showIcon
        message={`学生信息加载失败：${error}`}
        description="该学生可能不存在，或不是你负责的学生。请回到「学生志愿」重新选择，或点重试。"
        action={<Button onClick={() => setAttempt((n) => n + 1)}>重试</Button>}
      />
    );
  }
  if (!student || !rules) return <Spin style={{ display: 'block', margin: '80px auto' }} tip="正在加载学生信息..." />;

  return (
    <>
      <StudentHeader student={student} rules={rules} onEdit={() => setEditing(true)} onSwitch={onSwitch} />
      {rules.zyType === 2 ? (
        <GroupFillingBoard student={student} rules={rules} refreshKey={refreshKey} />
      ) : (
        <FillingBoard student={student} rules={rules} choices={choices} refreshKey={refreshKey} />
      )}
      <StudentFormDialog
        open={editing}
        student={student}
        onClose={() => setEditing(false)}
        onSaved={(s) => {
          setEditing(false);
          const rescore = s.score !== student.score || s.rank !== student.rank;
          setStudent(s);
          if (rescore) setRefreshKey((k) => k + 1);
        }}
      />
    </>
  );
}

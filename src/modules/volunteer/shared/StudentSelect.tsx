import { Select, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { listStudents, type Student } from '@/api/volunteer';

/** Label of a student in pickers: 张三（600 分 · 山东）. */
export const studentLabel = (s: Pick<Student, 'name' | 'score' | 'province'>) => `${s.name}（${s.score ?? '--'} 分 · ${s.province}）`;

export interface StudentSelectProps {
  value?: number;
  onChange?: (studentId: number | undefined, student?: Student) => void;
  placeholder?: string;
  style?: React.CSSProperties;
  allowClear?: boolean;
}

/** Searches the user's students by name (an expert sees their own, a leader all), 300 ms after typing stops. */
export function StudentSelect({ value, onChange, placeholder = '输入学生姓名搜索', style, allowClear = true }: StudentSelectProps) {
  const [options, setOptions] = useState<Student[]>([]);
  const [loading, setLoading] = useState(false);
  const [keyword, setKeyword] = useState('');
  const seq = useRef(0);

  useEffect(() => {
    const n = ++seq.current;
    const timer = setTimeout(async () => {
      setLoading(true);
      try {
        const page = await listStudents({ pageNum: 1, pageSize: 20, name: keyword.trim() || undefined });
        if (n === seq.current) setOptions(page.rows);
      } catch {
        // The http layer has said why.
      } finally {
        if (n === seq.current) setLoading(false);
      }
    }, 300);
    return () => clearTimeout(timer);
  }, [keyword]);

  return (
    <Select<number>
      showSearch
      allowClear={allowClear}
      value={value}
      placeholder={placeholder}
      style={{ minWidth: 240, ...style }}
      filterOption={false}
      onSearch={setKeyword}
      notFoundContent={loading ? <Spin size="small" /> : '没有找到学生'}
      options={options.map((s) => ({ value: s.studentId, label: studentLabel(s) }))}
      onChange={(id) =>
        onChange?.(
          id,
          options.find((s) => s.studentId === id),
        )
      }
    />
  );
}

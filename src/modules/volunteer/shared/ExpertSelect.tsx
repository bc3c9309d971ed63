import { Select } from 'antd';
import { useEffect, useState } from 'react';
import { type Expert, listExperts } from '@/api/volunteer';

/** Picks a volunteer expert (leaders only: volunteer:approval:list). */
export function ExpertSelect({
  value,
  onChange,
  placeholder = '全部专家',
  style,
}: {
  value?: number;
  onChange?: (v: number | undefined) => void;
  placeholder?: string;
  style?: React.CSSProperties;
}) {
  const [experts, setExperts] = useState<Expert[]>([]);
  useEffect(() => {
    listExperts()
      .then(setExperts)
      .catch(() => undefined);
  }, []);
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      value={value}
      onChange={onChange}
      placeholder={placeholder}
      style={{ minWidth: 160, ...style }}
      options={experts.map((e) => ({ value: e.userId, label: `${e.nickName || e.userName}（${e.studentCount} 名学生）` }))}
    />
  );
}

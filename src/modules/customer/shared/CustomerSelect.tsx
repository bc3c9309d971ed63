import { Select } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { type Customer, listCustomers } from '@/api/customer';

/** Picks customers by name (searched on the server, within the caller's store). */
export function CustomerSelect({
  value,
  onChange,
  multiple,
  placeholder = '输入姓名搜索用户',
}: {
  value?: number | number[];
  onChange?: (v: number | number[] | undefined) => void;
  multiple?: boolean;
  placeholder?: string;
}) {
  const [options, setOptions] = useState<Customer[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const search = (name: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      listCustomers({ pageNum: 1, pageSize: 20, name: name.trim() || undefined })
        .then((p) => setOptions(p.rows))
        .catch(() => undefined);
    }, 250);
  };
  useEffect(() => {
    search('');
    return () => clearTimeout(timer.current);
  }, []);
  return (
    <Select
      mode={multiple ? 'multiple' : undefined}
      showSearch
      allowClear
      filterOption={false}
      onSearch={search}
      value={value}
      onChange={onChange}
      placeholder={placeholder}
      style={{ width: '100%' }}
      options={options.map((c) => ({ value: c.studentId, label: `${c.name}${c.mobile ? `（${c.mobile}）` : ''}` }))}
    />
  );
}

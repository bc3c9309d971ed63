import { Button, Checkbox, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import type { GroupOptionRow } from '@/api/volunteer';

export interface GroupMajorsPickerProps {
  row: GroupOptionRow;
  /** Majors per group (湖北、广东 6). */
  limit: number;
  /** The entry already in the plan, if any: its majors and 服从调剂 are edited instead of added. */
  current: { majors: string[]; obey: boolean } | null;
  disabled: boolean;
  /** The student's 意向专业, offered as choices (any other name can be typed). */
  suggestions: string[];
  onSubmit: (majors: string[], obey: boolean) => void;
}

/** 服从调剂 is the safer default: a group that refuses adjustment can be withdrawn from entirely (退档). */
const DEFAULT_OBEY = true;

/**
 * The expanded row of a 院校专业组: up to `limit` majors in the order of preference (typed, as published in the
 * province's 招生计划 — the data carry no per-group major list) and 服从调剂, then 加入志愿表 or 更新.
 */
export function GroupMajorsPicker({ row, limit, current, disabled, suggestions, onSubmit }: GroupMajorsPickerProps) {
  const [majors, setMajors] = useState<string[]>(current?.majors ?? []);
  const [obey, setObey] = useState<boolean>(current?.obey ?? DEFAULT_OBEY);
  const clean = (list: string[]) => [...new Set(list.map((m) => m.trim().replace(/、/g, '')).filter(Boolean))].map((m) => m.slice(0, 50));
  const label = `${row.schoolName} 第${row.groupCode}组`;
  return (
    <div style={{ padding: '4px 0 4px 12px' }} data-testid="group-majors">
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', marginBottom: 6 }}>
        按意愿顺序填写该专业组内的专业（最多 {limit} 个，输入专业名称后回车），专业以当年招生计划为准。再选要求：{row.subjectReq}
      </Typography.Text>
      <Space wrap align="center">
        <Select
          mode="tags"
          aria-label={`${label} 专业`}
          style={{ minWidth: 360 }}
          value={majors}
          maxCount={limit}
          options={suggestions.map((m) => ({ value: m, label: `${m}（意向专业）` }))}
          {...(suggestions.length ? {} : { open: false, suffixIcon: null })}
          tokenSeparators={[',', '，', '、']}
          placeholder={`如：计算机科学与技术（最多 ${limit} 个）`}
          disabled={disabled}
          onChange={(v: string[]) => setMajors(clean(v))}
        />
        <Checkbox checked={obey} disabled={disabled} onChange={(e) => setObey(e.target.checked)}>
          服从调剂
        </Checkbox>
        <Button
          type="primary"
          size="small"
          disabled={disabled}
          onClick={() => onSubmit(majors, obey)}
          aria-label={`${current ? '更新' : '加入志愿表'} ${label}`}
        >
          {current ? '更新' : '加入志愿表'}
        </Button>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          已选 {majors.length}/{limit}
        </Typography.Text>
      </Space>
    </div>
  );
}

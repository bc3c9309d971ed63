import { WarningOutlined } from '@ant-design/icons';
import type { GradientWarning } from '@common/volunteer/gradient';
import { Alert, Typography } from 'antd';
import { useState } from 'react';

const SHOWN = 3;

/** Gradient and duplicate warnings under the plan (the first three, the rest on 展开). */
export function PlanWarnings({ warnings }: { warnings: readonly GradientWarning[] }) {
  const [all, setAll] = useState(false);
  if (warnings.length === 0) return null;
  const list = all ? warnings : warnings.slice(0, SHOWN);
  return (
    <Alert
      type="warning"
      showIcon
      icon={<WarningOutlined />}
      style={{ marginBottom: 8 }}
      message={`梯度检查：${warnings.length} 条提醒`}
      description={
        <>
          <ul aria-label="梯度检查提醒" style={{ margin: 0, paddingInlineStart: 16 }}>
            {list.map((w, i) => (
              <li key={`${w.code}-${i}`} data-code={w.code} style={{ fontSize: 12 }}>
                {w.message}
              </li>
            ))}
          </ul>
          {warnings.length > SHOWN ? (
            <Typography.Link style={{ fontSize: 12 }} onClick={() => setAll(!all)}>
              {all ? '收起' : `展开其余 ${warnings.length - SHOWN} 条`}
            </Typography.Link>
          ) : null}
        </>
      }
    />
  );
}

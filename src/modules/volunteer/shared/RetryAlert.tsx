import { Alert, Button } from 'antd';
import type { CSSProperties } from 'react';

/**
 * What failed to load, with 重试: "专业信息加载失败：<the server's message>" and, where the user can fix the cause, a
 * `description` of what to do. Nothing while there is no error.
 */
export function RetryAlert(props: { error: string | null | undefined; title: string; description?: string; onRetry: () => void; style?: CSSProperties }) {
  const { error, title, description, onRetry, style } = props;
  if (!error) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={style}
      message={`${title}：${error}`}
      description={description}
      action={
        <Button size="small" onClick={onRetry}>
          重试
        </Button>
      }
    />
  );
}

import { App as AntdApp } from 'antd';
import { useEffect } from 'react';
import { setFeedback } from '@/api/request';

/**
 * Gives the http layer (src/api/request.ts) the antd App context: its toasts, notifications and confirms are themed
 * and render inside the tree (unmounted with it), not through antd's static functions. Render it inside <AntdApp>.
 */
export function FeedbackBridge() {
  const api = AntdApp.useApp();
  useEffect(() => {
    setFeedback(api);
    return () => setFeedback(null);
  }, [api]);
  return null;
}

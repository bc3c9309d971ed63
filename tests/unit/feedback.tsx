import { App as AntdApp } from 'antd';
import { useEffect } from 'react';
import { setFeedback } from '@/api/request';

/**
 * The http layer's toasts, notifications and confirms through the App context of the rendered tree, as src/App.tsx's
 * FeedbackBridge does in the console: they render inside the tree, so cleanup() removes them with it (antd's static
 * ones live in a React root of their own that outlives the test). Render it first inside ../render.tsx's TestApp.
 */
export function FeedbackBridge() {
  const api = AntdApp.useApp();
  useEffect(() => {
    setFeedback(api);
    return () => setFeedback(null);
  }, [api]);
  return null;
}

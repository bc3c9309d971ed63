import { useCallback, useEffect, useState } from 'react';
import { browserChecks, currentBrowserFacts } from './browserFacts';
import { CheckTable } from './CheckTable';
import type { CheckRow } from './checkRows';

/** /test2 浏览器检测: whether this browser can run the console well (browser, window, Cookie, local storage). */
export default function BrowserCheck() {
  const [rows, setRows] = useState<CheckRow[]>([]);
  const run = useCallback(() => setRows(browserChecks(currentBrowserFacts())), []);
  useEffect(run, [run]);
  return (
    <CheckTable
      title="浏览器检测"
      intro="检查本浏览器能否正常使用控制台。遇到页面显示或登录问题时，可把本页截图发给管理员。"
      rows={rows}
      running={false}
      onRerun={run}
    />
  );
}

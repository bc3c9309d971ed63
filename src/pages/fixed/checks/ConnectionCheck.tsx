import { useCallback, useEffect, useRef, useState } from 'react';
import { APP_VERSION } from '@/layout/navbar/version';
import { CheckTable } from './CheckTable';
import type { CheckRow } from './checkRows';
import { protocolCheck, serverCheck, sessionCheck } from './connectionChecks';

const PENDING: CheckRow[] = [
  { key: 'server', item: '服务器连接', status: 'running', detail: '' },
  { key: 'protocol', item: '加密通信', status: 'running', detail: '' },
  { key: 'session', item: '登录状态', status: 'running', detail: '' },
];

/** /test1 连接检测: the server, the clock, the encrypted protocol and the session, checked from this browser. */
export default function ConnectionCheck() {
  const [rows, setRows] = useState<CheckRow[]>(PENDING);
  const [running, setRunning] = useState(false);
  const round = useRef(0);
  const run = useCallback(async () => {
    const mine = ++round.current;
    setRunning(true);
    setRows(PENDING);
    const [server, protocol, session] = await Promise.all([serverCheck(), protocolCheck(), sessionCheck()]);
    if (mine !== round.current) return; // a newer round answers
    setRows([...server, protocol, session, { key: 'version', item: '控制台版本', status: 'ok', detail: APP_VERSION }]);
    setRunning(false);
  }, []);
  useEffect(() => {
    run();
  }, [run]);
  return (
    <CheckTable
      title="连接检测"
      intro="检查本电脑与服务器之间的连接、时间与加密通信。遇到无法保存、频繁掉线等问题时，可把本页截图发给管理员。"
      rows={rows}
      running={running}
      onRerun={run}
    />
  );
}

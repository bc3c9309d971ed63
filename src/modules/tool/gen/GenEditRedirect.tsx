import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import type { EngineRecordPageProps } from '@/engine/resource';

/**
 * 修改 of 代码生成 (row or toolbar): the generation settings are the column editor's page
 * (/tool/gen-edit/index/:tableId, editTable.tsx), not a dialog — go there and leave the list as it was.
 */
export default function GenEditRedirect({ id, onClose }: EngineRecordPageProps) {
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    onClose(false);
    navigate(`/tool/gen-edit/index/${encodeURIComponent(String(id))}`);
  }, [id, navigate, onClose]);
  return null;
}

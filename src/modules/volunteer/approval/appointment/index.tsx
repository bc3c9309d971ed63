import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { AppointmentFormDialog } from './AppointmentFormDialog';
import { appointmentDialog } from './openers';

/** A link's filter (the home page's 今日预约: ?status=pending&dateFrom=<ms>&dateTo=<ms>) as the list's first search. */
function searchOfLink(params: URLSearchParams): Record<string, unknown> | undefined {
  const status = params.get('status') || undefined;
  const from = Number(params.get('dateFrom') || Number.NaN);
  const to = Number(params.get('dateTo') || Number.NaN);
  const bounded = Number.isFinite(from) && Number.isFinite(to) && from <= to;
  if (!status && !bounded) return undefined;
  return { status, appointTime: bounded ? [dayjs(from), dayjs(to)] : undefined };
}

/**
 * 预约管理 (appointment/index, schemas/volunteer/vol_appointment.json): the engine's list with 完成 / 取消 / 删除
 * declared in the schema, and the 新增预约 / 修改 / 改约 dialog (overrides.tsx opens it).
 */
export default function AppointmentPage({ resource }: EnginePageProps) {
  const dialog = appointmentDialog.use();
  const [params] = useSearchParams();
  const link = params.toString();
  const initialSearch = useMemo(() => searchOfLink(params), [link]);
  return (
    <>
      <EntityList key={link} resource={resource} initialSearch={initialSearch} />
      <AppointmentFormDialog
        mode={dialog?.mode ?? null}
        onClose={() => appointmentDialog.close()}
        onDone={() => {
          dialog?.refresh();
          appointmentDialog.close();
        }}
      />
    </>
  );
}

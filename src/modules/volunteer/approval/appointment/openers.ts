import { createOpener } from '../opener';
import type { AppointmentDialogMode } from './AppointmentFormDialog';

/** 新增预约 / 修改 / 改约: the dialog's mode and the list's refresh. */
export const appointmentDialog = createOpener<{ mode: AppointmentDialogMode; refresh: () => void }>();

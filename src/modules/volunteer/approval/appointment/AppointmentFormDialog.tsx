import { App, DatePicker, Form, Input, InputNumber, Modal } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { type Appointment, addAppointment, editAppointment, remakeAppointment } from '@/api/volunteer';
import { useAccess } from '@/components/Access';
import { ExpertSelect } from '@/modules/volunteer/shared/ExpertSelect';
import { StudentSelect } from '@/modules/volunteer/shared/StudentSelect';

interface Values {
  studentId?: number;
  expertId?: number;
  appointTime: Dayjs;
  duration: number;
  remark?: string;
}

export type AppointmentDialogMode = { kind: 'add' } | { kind: 'edit'; appointment: Appointment } | { kind: 'remake'; appointment: Appointment };

const TITLES = { add: '新增预约', edit: '修改预约', remake: '改约' };

/** 新增 / 修改 / 改约: time (not in the past), duration 15–240 minutes, remark. 改约 makes a new appointment. */
export function AppointmentFormDialog({ mode, onClose, onDone }: { mode: AppointmentDialogMode | null; onClose: () => void; onDone: () => void }) {
  const { message } = App.useApp();
  const { can } = useAccess();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const leader = can('volunteer:approval:list');

  useEffect(() => {
    if (!mode) return;
    form.resetFields();
    if (mode.kind === 'add') form.setFieldsValue({ duration: 60 });
    else {
      const a = mode.appointment;
      form.setFieldsValue({ appointTime: mode.kind === 'edit' ? dayjs(a.appointTime) : undefined, duration: a.duration, remark: a.remark ?? undefined });
    }
  }, [mode, form]);

  const submit = async (v: Values) => {
    if (!mode) return;
    setSaving(true);
    try {
      const appointTime = v.appointTime.valueOf();
      const remark = v.remark?.trim() || undefined;
      const msg =
        mode.kind === 'add'
          ? await addAppointment({ studentId: v.studentId as number, expertId: v.expertId, appointTime, duration: v.duration, remark })
          : mode.kind === 'edit'
            ? await editAppointment({
                appointmentId: mode.appointment.appointmentId,
                version: mode.appointment.version,
                appointTime,
                duration: v.duration,
                remark,
              })
            : await remakeAppointment({ appointmentId: mode.appointment.appointmentId, appointTime, duration: v.duration, remark });
      message.success(msg);
      onDone();
    } catch {
      // shown by the http layer (e.g. 该专家在该时间段已有预约); the form keeps the input
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={mode != null}
      title={mode ? (mode.kind === 'add' ? TITLES.add : `${TITLES[mode.kind]} · ${mode.appointment.studentName}`) : ''}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      forceRender
    >
      {mode?.kind === 'remake' ? (
        <p style={{ color: '#666' }}>
          原预约 {dayjs(mode.appointment.appointTime).format('YYYY-MM-DD HH:mm')} 将标记为「已改约」，并按下面的时间生成一条新的预约。
        </p>
      ) : null}
      <Form<Values> form={form} layout="vertical" onFinish={submit}>
        {mode?.kind === 'add' ? (
          <>
            <Form.Item label="学生" name="studentId" rules={[{ required: true, message: '请选择学生' }]}>
              <StudentSelect style={{ width: '100%' }} />
            </Form.Item>
            {leader ? (
              <Form.Item label="专家" name="expertId" tooltip="不选则为学生的负责专家">
                <ExpertSelect placeholder="学生的负责专家" style={{ width: '100%' }} />
              </Form.Item>
            ) : null}
          </>
        ) : null}
        <Form.Item
          label="预约时间"
          name="appointTime"
          rules={[
            { required: true, message: '请选择预约时间' },
            {
              validator: async (_r, v: Dayjs | undefined) => {
                if (v?.isBefore(dayjs())) throw new Error('预约时间不能早于当前时间');
              },
            },
          ]}
        >
          <DatePicker
            showTime={{ format: 'HH:mm', minuteStep: 5 }}
            format="YYYY-MM-DD HH:mm"
            style={{ width: '100%' }}
            disabledDate={(d) => d.isBefore(dayjs().startOf('day'))}
          />
        </Form.Item>
        <Form.Item
          label="时长（分钟）"
          name="duration"
          rules={[
            { required: true, message: '请输入时长' },
            { type: 'number', min: 15, max: 240, message: '时长必须在 15 到 240 分钟之间' },
          ]}
        >
          <InputNumber precision={0} step={15} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item label="备注" name="remark" rules={[{ max: 200, message: '备注不能超过 200 个字' }]}>
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

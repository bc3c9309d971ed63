import { Col, Form, Input, Radio, Row, Select, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { cronNextTimes, type JobHandlerInfo, listJobHandlers } from '@/api/monitor';
import { request } from '@/api/request';
import { useDict } from '@/components/DictTag';
import { FormDialog, useFormDialog } from '@/components/FormDialog';
import type { EngineRecordPageProps } from '@/engine/resource';

/**
 * 新增任务 / 修改任务 (RuoYi monitor/job form), in place of the generic form: 处理器 is chosen from the server's registry
 * (never a free-form invoke target), its parameters are shown with their Chinese names, and the cron expression shows
 * its next five fire times while it is typed (or why it is wrong). The server checks all of it again (jobHooks.ts).
 */

interface JobForm {
  jobName?: string;
  jobGroup?: string;
  handlerName?: string;
  handlerParams?: string;
  cronExpression?: string;
  misfirePolicy?: string;
  concurrent?: string;
  status?: string;
  remark?: string;
}

const BASE = '/dev-api/monitor/job';
export const MISFIRE_POLICIES = [
  { label: '立即执行', value: '1' },
  { label: '执行一次', value: '2' },
  { label: '放弃执行', value: '3' },
];

function paramsHint(handler: JobHandlerInfo | undefined): string {
  if (!handler) return '';
  const props = Object.entries(handler.paramsSchema.properties ?? {});
  if (props.length === 0) return '该处理器没有参数，填 {} 或留空';
  return `可用参数：${props.map(([k, p]) => `${k}（${p.title ?? k}${p.default !== undefined ? `，默认 ${String(p.default)}` : ''}）`).join('；')}`;
}

export default function JobFormDialog({ id, onClose }: EngineRecordPageProps) {
  const [form] = Form.useForm<JobForm>();
  const creating = id === undefined;
  const [handlers, setHandlers] = useState<JobHandlerInfo[]>([]);
  const [record, setRecord] = useState<Record<string, unknown> | null>(null);
  const [next, setNext] = useState<{ times: number[]; problem: string | null }>({ times: [], problem: null });
  const groups = useDict('sys_job_group');
  const statuses = useDict('sys_job_status');
  const handlerName = Form.useWatch('handlerName', form);
  const cron = Form.useWatch('cronExpression', form);

  // The next five fire times, asked of the server (it parses exactly as the runner will) a moment after typing stops.
  useEffect(() => {
    const text = (cron ?? '').trim();
    if (!text) {
      setNext({ times: [], problem: null });
      return;
    }
    let live = true;
    const timer = setTimeout(async () => {
      try {
        const times = await cronNextTimes(text);
        if (live) setNext({ times, problem: null });
      } catch (e) {
        if (live) setNext({ times: [], problem: (e as Error).message || 'Cron表达式不正确' });
      }
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [cron]);

  const save = async (values: JobForm) => {
    const body = {
      jobName: values.jobName?.trim(),
      jobGroup: values.jobGroup,
      handlerName: values.handlerName,
      handlerParams: values.handlerParams?.trim() || '{}',
      cronExpression: values.cronExpression?.trim(),
      misfirePolicy: values.misfirePolicy,
      concurrent: values.concurrent,
      status: values.status,
      remark: values.remark?.trim() || null,
    };
    if (creating) {
      await request({ url: BASE, method: 'post', data: body });
      return '新增成功';
    }
    await request({ url: BASE, method: 'put', data: { ...body, jobId: record?.jobId, version: record?.version } });
    return '修改成功';
  };

  const { dialog } = useFormDialog(form, {
    save,
    onClose,
    load: async (alive) => {
      const list = await listJobHandlers();
      if (!alive()) return;
      setHandlers(list);
      if (creating) {
        form.setFieldsValue({ jobGroup: 'DEFAULT', handlerParams: '{}', misfirePolicy: '3', concurrent: '1', status: '1' });
        return;
      }
      const env = await request<Record<string, unknown>>({ url: `${BASE}/${encodeURIComponent(String(id))}`, method: 'get' });
      if (!alive()) return;
      const data = env.data ?? {};
      setRecord(data);
      form.setFieldsValue({
        jobName: data.jobName as string,
        jobGroup: data.jobGroup as string,
        handlerName: data.handlerName as string,
        handlerParams: (data.handlerParams as string | null) ?? '{}',
        cronExpression: data.cronExpression as string,
        misfirePolicy: data.misfirePolicy as string,
        concurrent: data.concurrent as string,
        status: data.status as string,
        remark: (data.remark as string | null) ?? undefined,
      });
    },
  });

  const handler = handlers.find((h) => h.name === handlerName);

  return (
    <FormDialog title={creating ? '添加任务' : '修改任务'} width={820} {...dialog}>
      <Form
        form={form}
        name="job-form"
        labelCol={{ flex: '110px' }}
        wrapperCol={{ flex: '1 1 0', style: { minWidth: 0 } }}
        colon={false}
        disabled={dialog.busy}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="jobName"
              label="任务名称"
              rules={[
                { required: true, whitespace: true, message: '任务名称不能为空' },
                { max: 64, message: '任务名称长度不能超过 64 个字符' },
              ]}
            >
              <Input placeholder="请输入任务名称" maxLength={64} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="jobGroup" label="任务分组" rules={[{ required: true, message: '任务分组不能为空' }]}>
              <Select placeholder="请选择任务分组" options={groups.map((d) => ({ label: d.label, value: d.value }))} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="handlerName" label="处理器" rules={[{ required: true, message: '处理器不能为空' }]} extra={handler?.description}>
              <Select
                placeholder="请选择处理器"
                showSearch
                optionFilterProp="label"
                options={handlers.map((h) => ({ label: `${h.title}（${h.name}）`, value: h.name }))}
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="handlerParams" label="任务参数" extra={paramsHint(handler)}>
              <Input.TextArea rows={2} placeholder='JSON 对象，例如 {"days": 30}' maxLength={2000} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="cronExpression"
              label="cron表达式"
              rules={[{ required: true, whitespace: true, message: 'cron执行表达式不能为空' }]}
              validateStatus={next.problem ? 'error' : undefined}
              help={next.problem ?? undefined}
            >
              <Input placeholder="请输入cron执行表达式，例如 0 0/10 * * * ?（秒 分 时 日 月 周）" maxLength={255} />
            </Form.Item>
            {next.times.length > 0 && (
              <Form.Item label="最近5次运行时间" className="job-next-times">
                <Typography.Text type="secondary">
                  {next.times.map((t) => (
                    <div key={t}>{dayjs(t).format('YYYY-MM-DD HH:mm:ss')}</div>
                  ))}
                </Typography.Text>
              </Form.Item>
            )}
          </Col>
          <Col span={24}>
            <Form.Item name="misfirePolicy" label="执行策略" extra="错过的触发（例如服务停机期间）如何处理">
              <Radio.Group optionType="button" options={MISFIRE_POLICIES} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="concurrent" label="是否并发">
              <Radio.Group
                optionType="button"
                options={[
                  { label: '允许', value: '0' },
                  { label: '禁止', value: '1' },
                ]}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="status" label="状态">
              <Radio.Group options={statuses.map((d) => ({ label: d.label, value: d.value }))} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="remark" label="备注" rules={[{ max: 500, message: '备注长度不能超过 500 个字符' }]}>
              <Input.TextArea rows={2} maxLength={500} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormDialog>
  );
}

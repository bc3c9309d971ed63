import { DownloadOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, type TableProps, Tag } from 'antd';
import { useState } from 'react';
import { type Appraisal, downloadAppraisal, listAppraisals } from '@/api/customer';
import { useAccess } from '@/components/Access';
import { formatDate, formatTime } from '../shared/format';
import { PagedTable, SearchForm } from '../shared/SearchTable';
import { usePaged } from '../shared/usePaged';

type AppraisalQuery = { pageNum: number; pageSize: number; name?: string };

const DIMS: Record<string, string> = { R: '现实型', I: '研究型', A: '艺术型', S: '社会型', E: '企业型', C: '常规型' };

/** 测评管理 (manage/appraisal/index): the customers' assessment results with 下载结果 (a PDF report). */
export default function AppraisalPage() {
  const { can } = useAccess();
  const [search] = Form.useForm<{ name?: string }>();
  const paged = usePaged(listAppraisals, { pageNum: 1, pageSize: 20 } as AppraisalQuery);
  const [busy, setBusy] = useState<number | null>(null);
  const columns: TableProps<Appraisal>['columns'] = [
    { title: '用户', dataIndex: 'studentName', width: 100 },
    { title: '手机号码', dataIndex: 'mobile', width: 120, render: (v) => v ?? '--' },
    { title: '霍兰德代码', dataIndex: 'code', width: 100, render: (v: string) => <Tag color="blue">{v}</Tag> },
    {
      title: '各维度得分',
      dataIndex: 'dims',
      render: (d: Record<string, number>) =>
        Object.entries(d)
          .map(([k, v]) => `${DIMS[k] ?? k} ${v}`)
          .join('，'),
    },
    { title: '总分', dataIndex: 'score', width: 70 },
    { title: '结论', dataIndex: 'summary', ellipsis: true },
    { title: '测评时间', dataIndex: 'createTime', render: formatTime, width: 170 },
    { title: '有效期至', dataIndex: 'expireTime', width: 120, render: (v, a) => (a.valid ? formatDate(v) : <Tag>已过期</Tag>) },
    {
      title: '操作',
      key: 'op',
      width: 110,
      fixed: 'right',
      render: (_, a) =>
        can('manage:appraisal:download') ? (
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            loading={busy === a.appraisalId}
            onClick={async () => {
              setBusy(a.appraisalId);
              await downloadAppraisal(a).catch(() => undefined);
              setBusy(null);
            }}
          >
            下载结果
          </Button>
        ) : null,
    },
  ];
  return (
    <Card className="zy-page">
      <SearchForm form={search} paged={paged} toQuery={(v) => ({ name: v.name?.trim() || undefined })}>
        <Form.Item label="姓名" name="name">
          <Input allowClear placeholder="请输入姓名" style={{ width: 160 }} />
        </Form.Item>
      </SearchForm>
      <PagedTable<Appraisal, AppraisalQuery>
        paged={paged}
        rowKey="appraisalId"
        columns={columns}
        scroll={{ x: 1200 }}
        locale={{ emptyText: '暂无测评结果（用户在 App 中完成测评后显示）' }}
      />
    </Card>
  );
}

import type { StudentQuery } from '@common/volunteer/students';
import { App, Button, Card, Form, Input, InputNumber, Select, Space, Table, type TableProps } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { downloadPlanExcel, downloadPlanPdf, listStudents, type PlanStatus, type Student, type StudentInfo } from '@/api/volunteer';
import { useAccess } from '@/components/Access';
import { SearchForm, usePagedQuery } from '@/components/SearchList';
import { useDevice } from '@/layout/useDevice';
import { ExpertSelect } from '../shared/ExpertSelect';
import { formatRank, formatTime } from '../shared/format';
import { PLAN_STATUS_OPTIONS, PlanStatusTag } from '../shared/PlanStatusTag';
import { fillingHref, useViewPath, VIEW } from '../shared/useViewPath';
import { StudentDrawer } from './StudentDrawer';
import { StudentFormDialog } from './StudentFormDialog';

/** Spec §9: page sizes 10/20/30/50, default 20. */
const PAGE_SIZES = [10, 20, 30, 50];

interface SearchValues {
  name?: string;
  mobile?: string;
  planStatus?: PlanStatus;
  scoreMin?: number;
  scoreMax?: number;
  ownerId?: number;
}

export interface StudentsPageProps {
  /** 'saved' (志愿保存): the students' saved plans with their PDF / Excel exports. */
  mode?: 'saved';
}

/**
 * 志愿保存 (savevolunteer/index): the students as 学生志愿 lists them (a leader sees all, with the 负责专家 filter), with
 * the info drawer (编辑) and 去填报, and per student the saved plan as PDF or Excel. 学生志愿 itself is the engine's
 * screen of schemas/volunteer/vol_student.json (StudentListPage).
 */
export default function StudentsPage(_props: StudentsPageProps) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const { can } = useAccess();
  const mobile = useDevice() === 'mobile';
  const fillingPath = useViewPath(VIEW.filling);
  const leader = can('volunteer:approval:list');
  const [form] = Form.useForm<SearchValues>();
  const { query, setQuery, rows, total, loading, reload } = usePagedQuery<Student, StudentQuery>(listStudents, { pageNum: 1, pageSize: 20 });
  const [drawer, setDrawer] = useState<number | null>(null);
  const [drawerKey, setDrawerKey] = useState(0);
  const [editing, setEditing] = useState<{ student: StudentInfo | null } | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);

  const search = (v: SearchValues) => {
    if (v.scoreMin != null && v.scoreMax != null && v.scoreMin > v.scoreMax) {
      message.warning('最低分不能大于最高分，请调整分数范围');
      return;
    }
    setQuery({ pageNum: 1, pageSize: query.pageSize, ...v, name: v.name?.trim() || undefined, mobile: v.mobile?.trim() || undefined });
  };
  const reset = () => {
    form.resetFields();
    setQuery({ pageNum: 1, pageSize: query.pageSize });
  };
  const fill = (s: Pick<Student, 'studentId'>) => {
    if (!fillingPath) {
      message.warning('你没有「专家填报」菜单的权限，请联系管理员授权');
      return;
    }
    navigate(fillingHref(fillingPath, s.studentId));
  };
  const exportPlan = async (s: Student, kind: 'pdf' | 'excel') => {
    setExporting(`${s.studentId}-${kind}`);
    try {
      await (kind === 'pdf' ? downloadPlanPdf : downloadPlanExcel)(s.studentId, s.name);
    } catch {
      // shown by download()
    } finally {
      setExporting(null);
    }
  };

  const columns: TableProps<Student>['columns'] = [
    {
      title: '姓名',
      dataIndex: 'name',
      width: 100,
      fixed: mobile ? undefined : 'left',
      render: (v, r) => (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setDrawer(r.studentId)}>
          {v}
        </Button>
      ),
    },
    { title: '手机号', dataIndex: 'mobile', width: 120, render: (v) => v || '--' },
    { title: '省份', dataIndex: 'province', width: 70 },
    { title: '选科', dataIndex: 'subjectNames', width: 130, render: (v) => v || '--' },
    { title: '分数', dataIndex: 'score', width: 70, render: (v) => v ?? '--' },
    { title: '位次', dataIndex: 'rank', width: 90, render: formatRank },
    ...(leader ? [{ title: '负责专家', dataIndex: 'ownerName', width: 100, render: (v: string | null) => v || '--' }] : []),
    { title: '方案状态', dataIndex: 'planStatus', width: 90, render: (s: PlanStatus, r: Student) => <PlanStatusTag status={s} name={r.planStatusName} /> },
    { title: '志愿数', dataIndex: 'planItemCount', width: 70 },
    { title: '更新时间', dataIndex: 'updateTime', width: 160, render: formatTime },
    {
      title: '操作',
      key: 'action',
      width: 230,
      // Not fixed to the right: over a table wider than the page it covered 更新时间. The table scrolls as a whole.
      render: (_v, r) => (
        <Space size={0} style={{ whiteSpace: 'nowrap' }}>
          <Button type="link" size="small" onClick={() => setDrawer(r.studentId)}>
            详情
          </Button>
          {fillingPath ? (
            <Button type="link" size="small" onClick={() => fill(r)}>
              {r.planStatus === 'submitted' || r.planStatus === 'approved' ? '查看方案' : '填报'}
            </Button>
          ) : null}
          <Button type="link" size="small" disabled={r.planStatus === 'none'} loading={exporting === `${r.studentId}-pdf`} onClick={() => exportPlan(r, 'pdf')}>
            PDF
          </Button>
          <Button
            type="link"
            size="small"
            disabled={r.planStatus === 'none'}
            loading={exporting === `${r.studentId}-excel`}
            onClick={() => exportPlan(r, 'excel')}
          >
            Excel
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div style={{ padding: 16 }}>
      <Card>
        <SearchForm<SearchValues> form={form} onSearch={search} onReset={reset}>
          <Form.Item label="姓名" name="name">
            <Input placeholder="请输入学生姓名" allowClear maxLength={20} style={{ width: 150 }} />
          </Form.Item>
          <Form.Item label="手机号" name="mobile">
            <Input placeholder="请输入手机号" allowClear maxLength={11} style={{ width: 150 }} />
          </Form.Item>
          <Form.Item label="方案状态" name="planStatus">
            <Select allowClear placeholder="全部" style={{ width: 120 }} options={PLAN_STATUS_OPTIONS} />
          </Form.Item>
          <Form.Item label="分数">
            <Space.Compact>
              <Form.Item name="scoreMin" noStyle>
                <InputNumber min={0} max={750} precision={0} placeholder="最低" style={{ width: 80 }} />
              </Form.Item>
              <Form.Item name="scoreMax" noStyle>
                <InputNumber min={0} max={750} precision={0} placeholder="最高" style={{ width: 80 }} />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
          {leader ? (
            <Form.Item label="负责专家" name="ownerId">
              <ExpertSelect />
            </Form.Item>
          ) : null}
        </SearchForm>
        <Table<Student>
          rowKey="studentId"
          size="middle"
          loading={loading}
          columns={columns}
          dataSource={rows}
          // Exactly the columns' widths: a larger figure stretched them, a smaller one let the last columns hide.
          scroll={{ x: (columns ?? []).reduce((sum, c) => sum + Number(c.width ?? 100), 0) }}
          pagination={{
            current: query.pageNum,
            pageSize: query.pageSize,
            total,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            showTotal: (t) => `共 ${t} 名学生`,
            showLessItems: mobile,
            onChange: (pageNum, pageSize) => setQuery((q) => ({ ...q, pageNum, pageSize })),
          }}
        />
      </Card>
      <StudentDrawer
        studentId={drawer}
        refreshKey={drawerKey}
        onClose={() => setDrawer(null)}
        onEdit={(s) => setEditing({ student: s })}
        onFill={fillingPath ? (s) => fill(s) : undefined}
      />
      <StudentFormDialog
        open={editing != null}
        student={editing?.student ?? null}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          setDrawerKey((k) => k + 1);
          reload();
        }}
      />
    </div>
  );
}

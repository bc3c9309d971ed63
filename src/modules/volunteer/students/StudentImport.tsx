import type { StudentImportProblem } from '@common/volunteer/studentImport';
import { App, Modal, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { RequestError } from '@/api/request';
import { importStudents } from '@/api/volunteer';
import { studentImport, usePageRequest } from './openers';

/** The server's cap (server/volunteer/studentImport.ts STUDENT_IMPORT_MAX_BYTES), checked here first to save an upload. */
const MAX_BYTES = 5 * 1024 * 1024;

/**
 * 导入学生 (spec §7.2 ExcelImport/import): uploads the .xlsx picked by the toolbar's 导入 (override.tsx); the server
 * imports every row or none. A refused file shows the row-level report in a dialog.
 */
export function StudentImport({ resource, onImported }: { resource: string; onImported: () => void }) {
  const { message } = App.useApp();
  const file = usePageRequest(studentImport, resource);
  const [report, setReport] = useState<{ msg: string; problems: StudentImportProblem[] } | null>(null);

  useEffect(() => {
    if (!file) return;
    studentImport.close();
    if (!/\.xlsx$/i.test(file.name)) {
      message.warning('请选择 .xlsx 文件（可先下载导入模板）');
      return;
    }
    if (file.size > MAX_BYTES) {
      message.warning('导入文件大小不能超过 5 MB');
      return;
    }
    const hide = message.loading('正在导入…', 0);
    importStudents(file)
      .then(({ msg }) => {
        message.success(msg);
        onImported();
      })
      .catch((e: unknown) => {
        const problems = e instanceof RequestError && Array.isArray(e.envelope?.data) ? (e.envelope?.data as StudentImportProblem[]) : [];
        if (problems.length) setReport({ msg: e instanceof Error ? e.message : '导入失败', problems });
        else message.error(e instanceof Error ? e.message : '导入失败');
      })
      .finally(hide);
  }, [file, message, onImported]);

  return (
    <Modal
      open={report != null}
      title="导入失败"
      onCancel={() => setReport(null)}
      onOk={() => setReport(null)}
      cancelButtonProps={{ style: { display: 'none' } }}
    >
      <Typography.Paragraph type="danger">未写入任何数据，请修改以下行后重新导入。</Typography.Paragraph>
      <Table<StudentImportProblem>
        rowKey="row"
        size="small"
        pagination={false}
        scroll={{ y: 320 }}
        dataSource={report?.problems ?? []}
        columns={[
          { title: '行号', dataIndex: 'row', width: 70 },
          { title: '问题', dataIndex: 'message' },
        ]}
      />
    </Modal>
  );
}

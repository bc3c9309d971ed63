import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { StudentImportProblem } from '@common/volunteer/studentImport';
import { App, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { RequestError } from '@/api/request';
import { downloadStudentTemplate, importStudents } from '@/api/volunteer';

/** The server's cap (server/volunteer/studentImport.ts STUDENT_IMPORT_MAX_BYTES), checked here first to save an upload. */
const MAX_BYTES = 5 * 1024 * 1024;

interface StudentImportButtonProps {
  /** Called after a successful import (reload the list). */
  onImported: () => void;
}

/**
 * 导入学生 (spec §7.2 ExcelImport/import): pick an .xlsx made from the template; the server imports every row or none.
 * A refused file shows the row-level report in a dialog; the template is one click away.
 */
export function StudentImportButton({ onImported }: StudentImportButtonProps) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<{ msg: string; problems: StudentImportProblem[] } | null>(null);

  const upload = async (file: File) => {
    if (!/\.xlsx$/i.test(file.name)) {
      message.warning('请选择 .xlsx 文件（可先下载导入模板）');
      return;
    }
    if (file.size > MAX_BYTES) {
      message.warning('导入文件大小不能超过 5 MB');
      return;
    }
    setBusy(true);
    try {
      const { msg } = await importStudents(file);
      message.success(msg);
      onImported();
    } catch (e) {
      const problems = e instanceof RequestError && Array.isArray(e.envelope?.data) ? (e.envelope?.data as StudentImportProblem[]) : [];
      if (problems.length) setReport({ msg: e instanceof Error ? e.message : '导入失败', problems });
      else message.error(e instanceof Error ? e.message : '导入失败');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space style={{ marginBottom: 12, marginLeft: 8 }}>
      <Upload
        accept=".xlsx"
        showUploadList={false}
        beforeUpload={(file) => {
          upload(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy}>
          导入
        </Button>
      </Upload>
      <Button type="link" icon={<DownloadOutlined />} onClick={() => downloadStudentTemplate()}>
        下载导入模板
      </Button>
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
    </Space>
  );
}

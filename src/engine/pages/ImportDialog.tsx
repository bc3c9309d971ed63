import { InboxOutlined } from '@ant-design/icons';
import type { ImportProblem } from '@common/engine/imports';
import { Alert, App, Button, Checkbox, Modal, Table, Upload } from 'antd';
import { useState } from 'react';
import { downloadTemplate, importData, importProblems } from '@/api/engine';
import { RequestError } from '@/api/request';
import { extensionOf } from '@/utils/image';
import { actionEndpoint } from '../dataProvider';
import type { ResourceDef } from '../resource';

/**
 * 导入 (RuoYi upload dialog): drag or pick one .xlsx / .csv, 是否更新已经存在的数据, 下载模板. The server checks every
 * row in one transaction; a refused file writes nothing and answers a report of {row, field, message}, shown here as a
 * table (the dialog stays open to pick a corrected file).
 */
export const IMPORT_TYPES = ['xlsx', 'csv'];

export function ImportDialog({ resource: def, open, onClose }: { resource: ResourceDef; open: boolean; onClose: (imported: boolean) => void }) {
  const { message, modal } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [updateSupport, setUpdateSupport] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<ImportProblem[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const upload = actionEndpoint(def.schema, 'importData');
  const template = actionEndpoint(def.schema, 'importTemplate');

  const reset = () => {
    setFile(null);
    setProblems([]);
    setRefusal(null);
    setUpdateSupport(false);
  };

  const submit = async () => {
    if (!file) {
      message.warning('请选择要上传的文件');
      return;
    }
    setBusy(true);
    setProblems([]);
    setRefusal(null);
    try {
      const summary = await importData(upload.url, file, file.name, updateSupport);
      reset();
      onClose(true);
      modal.info({ title: '导入结果', content: summary, okText: '确定' });
    } catch (e) {
      const env = e instanceof RequestError ? e.envelope : undefined;
      setProblems(importProblems(env));
      setRefusal((e as Error).message || '导入失败');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      title={`${def.title}导入`}
      open={open}
      width={problems.length > 0 ? 720 : 400}
      maskClosable={false}
      okText="确 定"
      cancelText="取 消"
      confirmLoading={busy}
      onOk={submit}
      onCancel={() => {
        reset();
        onClose(false);
      }}
      destroyOnHidden
    >
      <Upload.Dragger
        accept=".xlsx,.csv"
        maxCount={1}
        fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
        beforeUpload={(f) => {
          if (!IMPORT_TYPES.includes(extensionOf(f.name))) {
            message.error(`文件格式不正确, 请上传${IMPORT_TYPES.join('/')}格式文件!`);
            return Upload.LIST_IGNORE;
          }
          setFile(f);
          setProblems([]);
          setRefusal(null);
          return false;
        }}
        onRemove={() => {
          setFile(null);
          return true;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">
          将文件拖到此处，或<em style={{ color: 'var(--zy-primary, #409EFF)' }}>点击上传</em>
        </p>
      </Upload.Dragger>
      <div style={{ textAlign: 'center', marginTop: 12, fontSize: 12 }}>
        <Checkbox checked={updateSupport} onChange={(e) => setUpdateSupport(e.target.checked)}>
          是否更新已经存在的数据
        </Checkbox>
        <div style={{ color: '#909399', marginTop: 6 }}>
          仅允许导入 xlsx、csv 格式文件。
          <Button
            type="link"
            size="small"
            onClick={() => downloadTemplate(template.url, def.title, template.method === 'get' ? 'get' : 'post').catch(() => undefined)}
          >
            下载模板
          </Button>
        </div>
      </div>
      {refusal && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          message={refusal}
          description={problems.length > 0 ? '文件未导入，请按下表修改后重新上传：' : undefined}
        />
      )}
      {problems.length > 0 && (
        <Table<ImportProblem>
          className="import-report"
          style={{ marginTop: 8 }}
          size="small"
          rowKey={(p) => `${p.row}-${p.field}-${p.message}`}
          pagination={problems.length > 10 ? { pageSize: 10, size: 'small' } : false}
          dataSource={problems}
          columns={[
            { title: '行号', dataIndex: 'row', width: 70 },
            { title: '字段', dataIndex: 'field', width: 140 },
            { title: '问题', dataIndex: 'message' },
          ]}
        />
      )}
    </Modal>
  );
}

import { DownloadOutlined } from '@ant-design/icons';
import type { GenTable } from '@common/gen/tables';
import { Alert, App, Button, Modal, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { downloadGen, genCode, genWriteEnabled } from '@/api/gen';
import { RequestError } from '@/api/request';

/** 生成代码: download the .json, or write it into schemas/ (development mode only, GEN_WRITE=1). */
export function GenCodeDialog({ table, onClose }: { table: Pick<GenTable, 'tableId' | 'tableName' | 'entityName'>; onClose: () => void }) {
  const { modal, message } = App.useApp();
  const [busy, setBusy] = useState(false);
  // Whether the server may write schemas/ rides on the list answer (genWrite); unknown until read, then offered or not.
  const [genWrite, setGenWrite] = useState<boolean | null>(null);
  const file = `schemas/${table.entityName}.json`;

  useEffect(() => {
    let live = true;
    genWriteEnabled()
      .then((w) => live && setGenWrite(w))
      .catch(() => live && setGenWrite(false));
    return () => {
      live = false;
    };
  }, []);

  const write = async (overwrite = false) => {
    setBusy(true);
    try {
      message.success(await genCode(table.tableId, overwrite));
      onClose();
    } catch (e) {
      const err = e as RequestError;
      if (err instanceof RequestError && err.envelope?.exists === true && !overwrite) {
        modal.confirm({
          title: '系统提示',
          content: `文件 ${file} 已存在，是否覆盖？`,
          okText: '覆盖',
          cancelText: '取消',
          onOk: () => write(true),
        });
      } else {
        message.error(err.message || '生成失败');
      }
    } finally {
      setBusy(false);
    }
  };
  const save = async () => {
    try {
      await downloadGen(table);
      onClose();
    } catch {
      // shown by the download helper
    }
  };

  return (
    <Modal title="生成代码" open onCancel={onClose} footer={null} width={560}>
      <div className="gen-code-dialog">
        <Typography.Paragraph>
          表 <Typography.Text code>{table.tableName}</Typography.Text> 生成 schema 文件 <Typography.Text code>{file}</Typography.Text>。
        </Typography.Paragraph>
        {genWrite === false && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            message="仅开发模式可写入 schemas/ 目录（服务端设置 GEN_WRITE=1）；当前可下载文件后放入 schemas/。"
          />
        )}
        <Space>
          <Button type="primary" icon={<DownloadOutlined />} onClick={save}>
            下载 .json
          </Button>
          <Button disabled={genWrite !== true} loading={busy} onClick={() => write(false)}>
            写入 schemas/ 目录
          </Button>
          <Button onClick={onClose}>取消</Button>
        </Space>
      </div>
    </Modal>
  );
}

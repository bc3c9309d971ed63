import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Modal, Spin, Tabs } from 'antd';
import { useEffect, useState } from 'react';
import { previewGen } from '@/api/gen';
import { copyText } from '@/components/CopyText';

/** 代码预览: the generated schema file(s), one tab per file, each with 复制. */
export function PreviewDialog({ tableId, onClose }: { tableId: number | null; onClose: () => void }) {
  const { message } = App.useApp();
  const [files, setFiles] = useState<Record<string, string> | null>(null);

  useEffect(() => {
    if (tableId === null) return;
    let live = true;
    setFiles(null);
    previewGen(tableId)
      .then((f) => live && setFiles(f))
      .catch(() => live && onClose()); // the http layer has shown why (e.g. 生成配置有误：…)
    return () => {
      live = false;
    };
  }, [tableId, onClose]);

  const copy = async (text: string) => {
    try {
      await copyText(text);
      message.success('复制成功');
    } catch {
      message.error('复制失败');
    }
  };

  return (
    <Modal title="代码预览" open={tableId !== null} onCancel={onClose} footer={null} width="80%" style={{ top: 40 }} destroyOnHidden>
      {!files ? (
        <Spin style={{ display: 'block', padding: 48 }} />
      ) : (
        <Tabs
          className="gen-preview"
          items={Object.entries(files).map(([name, text]) => ({
            key: name,
            label: name.split('/').pop(),
            children: (
              <div style={{ position: 'relative' }}>
                <Button size="small" icon={<CopyOutlined />} style={{ position: 'absolute', right: 8, top: 8 }} onClick={() => copy(text)}>
                  复制
                </Button>
                <div style={{ color: '#909399', fontSize: 12, marginBottom: 6 }}>{name}</div>
                <pre className="gen-preview-code" style={{ maxHeight: '65vh', overflow: 'auto', background: '#f6f8fa', padding: 12, margin: 0, fontSize: 12 }}>
                  {text}
                </pre>
              </div>
            ),
          }))}
        />
      )}
    </Modal>
  );
}

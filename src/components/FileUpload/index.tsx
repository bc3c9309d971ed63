import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Upload, type UploadFile, type UploadProps } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { uploadFile } from '@/api/engine';
import { extensionOf } from '@/utils/image';

/**
 * File upload (RuoYi FileUpload, spec §2.4 / §5): doc, xls, ppt, txt, pdf under 5 MB, at most 5 files by default,
 * posted to /dev-api/common/upload. The value is the comma-separated address list; the addresses are committed when
 * the last file in flight finishes.
 */
export interface FileUploadProps {
  value?: string | string[] | null;
  onChange?: (value: string | undefined) => void;
  limit?: number;
  fileSize?: number;
  fileType?: string[];
  isShowTip?: boolean;
  disabled?: boolean;
  id?: string;
}

export const fileTypeMessage = (types: string[]) => `文件格式不正确, 请上传${types.join('/')}格式文件!`;
export const fileSizeMessage = (mb: number) => `上传文件大小不能超过 ${mb} MB!`;
export const fileCountMessage = (n: number) => `上传文件数量不能超过 ${n} 个!`;

function listOf(value: FileUploadProps['value']): string[] {
  if (!value) return [];
  return (Array.isArray(value) ? value : String(value).split(',')).map((s) => s.trim()).filter(Boolean);
}

const toFile = (url: string): UploadFile => ({ uid: url, name: decodeURIComponent(url.split('/').pop() ?? url), status: 'done', url });

export function FileUpload({
  value,
  onChange,
  limit = 5,
  fileSize = 5,
  fileType = ['doc', 'xls', 'ppt', 'txt', 'pdf'],
  isShowTip = true,
  disabled,
  id,
}: FileUploadProps) {
  const { message } = App.useApp();
  const urls = listOf(value);
  const latest = useRef(urls);
  latest.current = urls;
  const [pending, setPending] = useState<UploadFile[]>([]);
  const batch = useRef<string[]>([]);
  const inflight = useRef(0);
  const hideLoading = useRef<(() => void) | null>(null);
  useEffect(() => () => hideLoading.current?.(), []);

  const beforeUpload: UploadProps['beforeUpload'] = (file, selection) => {
    if (fileType.length > 0 && !fileType.map((t) => t.toLowerCase()).includes(extensionOf(file.name))) {
      message.error(fileTypeMessage(fileType));
      return Upload.LIST_IGNORE;
    }
    if (fileSize && file.size / 1024 / 1024 >= fileSize) {
      message.error(fileSizeMessage(fileSize));
      return Upload.LIST_IGNORE;
    }
    if (latest.current.length + inflight.current + selection.length > limit) {
      if (selection.indexOf(file) === 0) message.error(fileCountMessage(limit));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    inflight.current += 1;
    if (!hideLoading.current) hideLoading.current = message.loading('正在上传文件，请稍候...', 0);
    uploadFile(file as File)
      .then((r) => {
        batch.current.push(r.url);
        onSuccess?.(r);
      })
      .catch((e: Error) => {
        message.error(e.message || '上传文件失败');
        onError?.(e);
      })
      .finally(() => {
        inflight.current -= 1;
        if (inflight.current > 0) return;
        const added = batch.current;
        batch.current = [];
        setPending([]);
        hideLoading.current?.();
        hideLoading.current = null;
        if (added.length > 0) onChange?.([...latest.current, ...added].join(','));
      });
  };

  return (
    <div id={id} className="upload-file">
      <Upload
        multiple={limit > 1}
        fileList={[...urls.map(toFile), ...pending]}
        disabled={disabled}
        accept={fileType.map((t) => `.${t}`).join(',')}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onChange={({ fileList }) => setPending(fileList.filter((f) => f.status === 'uploading'))}
        onRemove={(file) => {
          onChange?.(urls.filter((u) => u !== file.url).join(',') || undefined);
          return false;
        }}
      >
        {!disabled && urls.length < limit && <Button icon={<UploadOutlined />}>选取文件</Button>}
      </Upload>
      {isShowTip && !disabled && (
        <div style={{ color: '#909399', fontSize: 12, marginTop: 4 }}>
          请上传 大小不超过 <b style={{ color: '#f56c6c' }}>{fileSize}MB</b> 格式为 <b style={{ color: '#f56c6c' }}>{fileType.join('/')}</b> 的文件
        </div>
      )}
    </div>
  );
}

import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Upload, type UploadFile, type UploadProps } from 'antd';
import { extensionOf } from '@/utils/image';
import { useUploadBatch } from './useUploadBatch';

/**
 * File upload (RuoYi FileUpload, spec §2.4 / §5): doc, xls, ppt, txt, pdf under 5 MB, at most 5 files by default,
 * posted to /dev-api/common/upload. The value is the comma-separated address list; the addresses are committed when
 * the last file in flight finishes.
 */
export interface FileUploadProps {
  value?: string | string[] | null;
  onChange?: (value: string | undefined) => void;
  limit?: number;
  /** MB */
  fileSize?: number;
  fileType?: string[];
  isShowTip?: boolean;
  disabled?: boolean;
  id?: string;
}

export const fileTypeMessage = (types: string[]) => `文件格式不正确, 请上传${types.join('/')}格式文件!`;
export const fileSizeMessage = (mb: number) => `上传文件大小不能超过 ${mb} MB!`;

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
  const { pending, checkCount, uploadProps } = useUploadBatch({ urls, onChange, limit, what: '文件' });

  const beforeUpload: UploadProps['beforeUpload'] = (file, selection) => {
    if (fileType.length > 0 && !fileType.map((t) => t.toLowerCase()).includes(extensionOf(file.name))) {
      message.error(fileTypeMessage(fileType));
      return Upload.LIST_IGNORE;
    }
    if (fileSize && file.size / 1024 / 1024 >= fileSize) {
      message.error(fileSizeMessage(fileSize));
      return Upload.LIST_IGNORE;
    }
    return checkCount(file, selection);
  };

  return (
    <div id={id} className="upload-file">
      <Upload
        {...uploadProps}
        fileList={[...urls.map(toFile), ...pending]}
        disabled={disabled}
        accept={fileType.map((t) => `.${t}`).join(',')}
        beforeUpload={beforeUpload}
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

import { PlusOutlined } from '@ant-design/icons';
import { App, Image, Upload, type UploadFile, type UploadProps } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { uploadFile } from '@/api/engine';
import { compressImage, extensionOf } from '@/utils/image';
import { imageList } from '../ImagePreview';

/**
 * Image upload with preview (RuoYi ImageUpload, spec §2.4 / §5): png / jpg / jpeg, under 5 MB, at most 5 files by
 * default; JPEGs are re-encoded at quality 0.8 before upload (§5 image helpers). Files go to /dev-api/common/upload.
 * While files are in flight a loading message shows; when the last one finishes, the addresses are committed to the
 * value at once (§4 "Upload"). The value is the comma-separated address list.
 */
export interface ImageUploadProps {
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

export const imageTypeMessage = (types: string[]) => `文件格式不正确, 请上传${types.join('/')}图片格式文件!`;
export const imageSizeMessage = (mb: number) => `上传头像图片大小不能超过 ${mb} MB!`;
export const countMessage = (n: number) => `上传文件数量不能超过 ${n} 个!`;

const toFile = (url: string): UploadFile => ({ uid: url, name: url.split('/').pop() ?? url, status: 'done', url });

export function ImageUpload({ value, onChange, limit = 5, fileSize = 5, fileType = ['png', 'jpg', 'jpeg'], isShowTip = true, disabled, id }: ImageUploadProps) {
  const { message } = App.useApp();
  const urls = imageList(value);
  const latest = useRef(urls);
  latest.current = urls;
  const [pending, setPending] = useState<UploadFile[]>([]);
  const [preview, setPreview] = useState<string | null>(null);
  const batch = useRef<string[]>([]);
  const inflight = useRef(0);
  const hideLoading = useRef<(() => void) | null>(null);
  useEffect(() => () => hideLoading.current?.(), []);

  const finishOne = () => {
    inflight.current -= 1;
    if (inflight.current > 0) return;
    const added = batch.current;
    batch.current = [];
    setPending([]);
    hideLoading.current?.();
    hideLoading.current = null;
    if (added.length > 0) onChange?.([...latest.current, ...added].join(','));
  };

  const beforeUpload: UploadProps['beforeUpload'] = (file, selection) => {
    const ext = extensionOf(file.name);
    const typeOk = fileType.some((t) => ext === t.toLowerCase() || file.type.toLowerCase().includes(t.toLowerCase()));
    if (!typeOk) {
      message.error(imageTypeMessage(fileType));
      return Upload.LIST_IGNORE;
    }
    if (file.size / 1024 / 1024 >= fileSize) {
      message.error(imageSizeMessage(fileSize));
      return Upload.LIST_IGNORE;
    }
    if (latest.current.length + inflight.current + selection.length > limit) {
      if (selection.indexOf(file) === 0) message.error(countMessage(limit));
      return Upload.LIST_IGNORE;
    }
    return compressImage(file);
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    inflight.current += 1;
    if (!hideLoading.current) hideLoading.current = message.loading('正在上传图片，请稍候...', 0);
    uploadFile(file as File)
      .then((r) => {
        batch.current.push(r.url);
        onSuccess?.(r);
      })
      .catch((e: Error) => {
        message.error(e.message && e.message !== '上传文件失败' ? e.message : '上传图片失败');
        onError?.(e);
      })
      .finally(finishOne);
  };

  const fileList = [...urls.map(toFile), ...pending];
  return (
    <div id={id} className="component-upload-image">
      <Upload
        listType="picture-card"
        accept={fileType.map((t) => `.${t}`).join(',')}
        multiple={limit > 1}
        fileList={fileList}
        disabled={disabled}
        beforeUpload={beforeUpload}
        customRequest={customRequest}
        onChange={({ fileList: next }) => setPending(next.filter((f) => f.status === 'uploading'))}
        onRemove={(file) => {
          onChange?.(urls.filter((u) => u !== file.url).join(',') || undefined);
          return false;
        }}
        onPreview={(file) => setPreview(file.url ?? file.thumbUrl ?? null)}
      >
        {fileList.length >= limit || disabled ? null : (
          <div>
            <PlusOutlined />
            <div style={{ marginTop: 8 }}>上传</div>
          </div>
        )}
      </Upload>
      {isShowTip && !disabled && (
        <div className="el-upload__tip" style={{ color: '#909399', fontSize: 12 }}>
          请上传 大小不超过 <b style={{ color: '#f56c6c' }}>{fileSize}MB</b> 格式为 <b style={{ color: '#f56c6c' }}>{fileType.join('/')}</b> 的文件
        </div>
      )}
      {preview && <Image style={{ display: 'none' }} src={preview} preview={{ visible: true, src: preview, onVisibleChange: (v) => !v && setPreview(null) }} />}
    </div>
  );
}

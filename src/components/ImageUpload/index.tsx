import { PlusOutlined } from '@ant-design/icons';
import { App, Image, Upload, type UploadFile, type UploadProps } from 'antd';
import { useState } from 'react';
import { compressImage, extensionOf } from '@/utils/image';
import type { FileUploadProps } from '../FileUpload';
import { useUploadBatch } from '../FileUpload/useUploadBatch';
import { imageList } from '../ImagePreview';

/**
 * Image upload with preview (RuoYi ImageUpload, spec §2.4 / §5): png / jpg / jpeg, under 5 MB, at most 5 files by
 * default; JPEGs are re-encoded at quality 0.8 before upload (§5 image helpers). Files go to /dev-api/common/upload.
 * While files are in flight a loading message shows; when the last one finishes, the addresses are committed to the
 * value at once (§4 "Upload"). The value is the comma-separated address list.
 */
/** The same props as FileUpload: the value is the comma-separated address list, `fileSize` in MB. */
export type ImageUploadProps = FileUploadProps;

export const imageTypeMessage = (types: string[]) => `文件格式不正确, 请上传${types.join('/')}图片格式文件!`;
export const imageSizeMessage = (mb: number) => `上传头像图片大小不能超过 ${mb} MB!`;

const toFile = (url: string): UploadFile => ({ uid: url, name: url.split('/').pop() ?? url, status: 'done', url });

export function ImageUpload({ value, onChange, limit = 5, fileSize = 5, fileType = ['png', 'jpg', 'jpeg'], isShowTip = true, disabled, id }: ImageUploadProps) {
  const { message } = App.useApp();
  const urls = imageList(value);
  const { pending, checkCount, uploadProps } = useUploadBatch({ urls, onChange, limit, what: '图片' });
  const [preview, setPreview] = useState<string | null>(null);

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
    const fits = checkCount(file, selection);
    return fits === true ? compressImage(file) : fits;
  };

  const fileList = [...urls.map(toFile), ...pending];
  return (
    <div id={id} className="component-upload-image">
      <Upload
        {...uploadProps}
        listType="picture-card"
        accept={fileType.map((t) => `.${t}`).join(',')}
        fileList={fileList}
        disabled={disabled}
        beforeUpload={beforeUpload}
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

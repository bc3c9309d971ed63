import { CameraOutlined } from '@ant-design/icons';
import { Avatar, message, Upload } from 'antd';
import ImgCrop from 'antd-img-crop';
import { useState } from 'react';
import { uploadAvatar } from '@/api/profile';

const TYPES = ['image/png', 'image/jpeg'];
const MAX_MB = 5;

/** Avatar with crop and preview before upload (spec §2.3 user profile avatar); checks type and size first (§5). */
export function AvatarUpload({ url, name, onChange }: { url: string | null; name: string; onChange: (url: string) => void }) {
  const [uploading, setUploading] = useState(false);
  const check = (file: File) => {
    if (!TYPES.includes(file.type)) {
      message.error('文件格式不正确, 请上传png/jpg/jpeg图片格式文件!');
      return Upload.LIST_IGNORE;
    }
    if (file.size / 1024 / 1024 > MAX_MB) {
      message.error(`上传头像图片大小不能超过 ${MAX_MB} MB!`);
      return Upload.LIST_IGNORE;
    }
    return true;
  };
  return (
    <ImgCrop rotationSlider modalTitle="修改头像" modalOk="上传" modalCancel="取消" quality={0.8} beforeCrop={(file) => check(file) === true}>
      <Upload
        accept=".png,.jpg,.jpeg"
        showUploadList={false}
        beforeUpload={check}
        customRequest={async ({ file, onSuccess, onError }) => {
          setUploading(true);
          try {
            const imgUrl = await uploadAvatar(file as File);
            message.success('修改成功');
            onChange(imgUrl);
            onSuccess?.(imgUrl);
          } catch (error) {
            onError?.(error as Error);
          } finally {
            setUploading(false);
          }
        }}
      >
        <div style={{ position: 'relative', cursor: 'pointer', display: 'inline-block' }} title="点击上传头像">
          <Avatar size={120} src={url || undefined} style={{ background: '#409EFF', fontSize: 48 }}>
            {name.slice(0, 1)}
          </Avatar>
          <CameraOutlined
            style={{ position: 'absolute', right: 6, bottom: 6, fontSize: 20, color: '#fff', background: 'rgba(0,0,0,.45)', borderRadius: '50%', padding: 6 }}
          />
          {uploading && (
            <span
              style={{
                position: 'absolute',
                inset: 0,
                display: 'grid',
                placeItems: 'center',
                color: '#fff',
                background: 'rgba(0,0,0,.45)',
                borderRadius: '50%',
              }}
            >
              上传中…
            </span>
          )}
        </div>
      </Upload>
    </ImgCrop>
  );
}

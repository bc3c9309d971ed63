import { Image, Space } from 'antd';
import { useState } from 'react';

/**
 * Image preview (spec §2.4): a thumbnail of each address (comma-separated or an array), click to preview all of them.
 * A picture that does not load says 图片加载失败 (§8).
 */
export const IMAGE_LOAD_FAILED = '图片加载失败';

export interface ImagePreviewProps {
  src?: string | string[] | null;
  width?: number;
  height?: number;
}

export function imageList(src: ImagePreviewProps['src']): string[] {
  if (!src) return [];
  const list = Array.isArray(src) ? src : String(src).split(',');
  return list.map((s) => s.trim()).filter(Boolean);
}

function Thumb({ url, width, height }: { url: string; width: number; height: number }) {
  const [failed, setFailed] = useState(false);
  if (failed)
    return (
      <span
        className="image-slot"
        style={{ width, height, display: 'inline-flex', alignItems: 'center', justifyContent: 'center', background: '#f5f7fa', color: '#909399', fontSize: 12 }}
      >
        {IMAGE_LOAD_FAILED}
      </span>
    );
  return <Image src={url} width={width} height={height} style={{ objectFit: 'cover', borderRadius: 5 }} onError={() => setFailed(true)} />;
}

export function ImagePreview({ src, width = 50, height = 50 }: ImagePreviewProps) {
  const list = imageList(src);
  if (list.length === 0) return null;
  return (
    <Image.PreviewGroup items={list}>
      <Space size={4} wrap>
        {list.map((url) => (
          <Thumb key={url} url={url} width={width} height={height} />
        ))}
      </Space>
    </Image.PreviewGroup>
  );
}

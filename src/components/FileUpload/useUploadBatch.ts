import { App, Upload, type UploadFile, type UploadProps } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { uploadFile } from '@/api/engine';

export const fileCountMessage = (n: number) => `上传文件数量不能超过 ${n} 个!`;

/**
 * The upload machinery FileUpload and ImageUpload share (spec §4 "Upload"): files of one selection go up together
 * while a loading message shows; when the last one in flight finishes, the new addresses are committed to the value
 * (comma-separated) at once. `checkCount` refuses what would pass `limit` (saying so once per selection).
 */
export function useUploadBatch({
  urls,
  onChange,
  limit,
  what,
}: {
  urls: string[];
  onChange?: (value: string | undefined) => void;
  limit: number;
  what: '文件' | '图片';
}) {
  const { message } = App.useApp();
  const latest = useRef(urls);
  latest.current = urls;
  const [pending, setPending] = useState<UploadFile[]>([]);
  const batch = useRef<string[]>([]);
  const inflight = useRef(0);
  const hideLoading = useRef<(() => void) | null>(null);
  useEffect(() => () => hideLoading.current?.(), []);

  const checkCount = (file: UploadFile | File, selection: Array<UploadFile | File>): true | typeof Upload.LIST_IGNORE => {
    if (latest.current.length + inflight.current + selection.length <= limit) return true;
    if (selection.indexOf(file) === 0) message.error(fileCountMessage(limit));
    return Upload.LIST_IGNORE;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onSuccess, onError }) => {
    inflight.current += 1;
    if (!hideLoading.current) hideLoading.current = message.loading(`正在上传${what}，请稍候...`, 0);
    uploadFile(file as File)
      .then((r) => {
        batch.current.push(r.url);
        onSuccess?.(r);
      })
      .catch((e: Error) => {
        // The server's reason when it gives one; its generic text names the kind of upload instead.
        message.error(e.message && e.message !== '上传文件失败' ? e.message : `上传${what}失败`);
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

  const uploadProps: Pick<UploadProps, 'multiple' | 'customRequest' | 'onChange' | 'onRemove'> = {
    multiple: limit > 1,
    customRequest,
    onChange: ({ fileList }) => setPending(fileList.filter((f) => f.status === 'uploading')),
    onRemove: (file) => {
      onChange?.(urls.filter((u) => u !== file.url).join(',') || undefined);
      return false;
    },
  };
  return { pending, checkCount, uploadProps };
}

import { PauseOutlined, PlayCircleOutlined, UploadOutlined } from '@ant-design/icons';
import type { WidgetProps } from '@rjsf/utils';
import { App, Button, Progress, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { type DetailedError, Upload } from 'tus-js-client';
import { signTimestamp } from '@/api/crypto';
import { getToken } from '@/utils/auth';

/**
 * x-ui.widget videoUpload: a resumable upload (tus protocol, server/content/video.ts) with a progress bar. The file
 * goes in 8 MB chunks; a dropped connection is retried from the offset the server holds, 暂停 / 继续 stop and resume
 * by hand, and an upload interrupted by a closed page resumes when the same file is chosen again. Every request is
 * signed like the console's other calls. The value is the stored video's URL (played below with seeking).
 * ui:options: `endpoint` (default the §7.7 ManagerClassroom/videoUpload).
 */

const DEFAULT_ENDPOINT = '/appv2/api/ManagerClassroom/videoUpload';
const CHUNK_BYTES = 8 * 1024 * 1024;

/** The server's refusal as a sentence: tus answers plain text, the gate answers {code, msg}. */
function refusal(err: Error): string {
  const body = (err as DetailedError).originalResponse?.getBody?.() ?? '';
  try {
    const parsed = JSON.parse(body) as { msg?: string };
    if (parsed.msg) return parsed.msg;
  } catch {
    // plain text
  }
  return body.trim() || '视频上传失败，请检查网络后重试';
}

export function VideoUploadWidget({ id, value, onChange, disabled, readonly, options }: WidgetProps) {
  const { message } = App.useApp();
  const endpoint = typeof options.endpoint === 'string' ? options.endpoint : DEFAULT_ENDPOINT;
  const input = useRef<HTMLInputElement>(null);
  const upload = useRef<Upload | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [state, setState] = useState<'idle' | 'uploading' | 'paused'>('idle');
  const [fileName, setFileName] = useState('');

  useEffect(() => () => void upload.current?.abort(), []);

  const begin = async (file: File) => {
    setFileName(file.name);
    setPercent(0);
    const u = new Upload(file, {
      endpoint,
      chunkSize: CHUNK_BYTES,
      retryDelays: [0, 1000, 3000, 5000, 10000],
      metadata: { filename: file.name, filetype: file.type },
      removeFingerprintOnSuccess: true,
      onBeforeRequest: (req) => {
        const token = getToken();
        if (token) req.setHeader('Authorization', `Bearer ${token}`);
        const signed = signTimestamp();
        req.setHeader('Authentication', signed.Authentication);
        req.setHeader('Timer', signed.Timer);
      },
      onProgress: (sent, total) => setPercent(total ? Math.floor((sent / total) * 100) : 0),
      onSuccess: ({ lastResponse }) => {
        const url = lastResponse.getHeader('X-Video-Url');
        setState('idle');
        upload.current = null;
        if (!url) {
          message.error('视频上传失败：服务器没有返回地址');
          return;
        }
        setPercent(100);
        onChange(url);
        message.success('视频上传成功');
      },
      onError: (err) => {
        setState('idle');
        setPercent(null);
        upload.current = null;
        message.error(refusal(err));
      },
    });
    upload.current = u;
    // A file sent before (page closed, network lost) continues where the server stopped.
    const previous = await u.findPreviousUploads();
    if (previous.length > 0) u.resumeFromPreviousUpload(previous[0]);
    setState('uploading');
    u.start();
  };

  const pause = () => {
    void upload.current?.abort();
    setState('paused');
  };
  const resume = () => {
    upload.current?.start();
    setState('uploading');
  };

  const locked = disabled || readonly;
  return (
    <div id={id} className="video-upload">
      <input
        ref={input}
        type="file"
        accept="video/mp4,video/webm,video/ogg,.mp4,.webm,.ogv,.mov"
        style={{ display: 'none' }}
        aria-label="选择视频文件"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void begin(file);
        }}
      />
      <Space wrap>
        <Button icon={<UploadOutlined />} disabled={locked || state !== 'idle'} onClick={() => input.current?.click()}>
          {value ? '重新上传' : '选择视频'}
        </Button>
        {state === 'uploading' && (
          <Button icon={<PauseOutlined />} onClick={pause}>
            暂停
          </Button>
        )}
        {state === 'paused' && (
          <Button type="primary" icon={<PlayCircleOutlined />} onClick={resume}>
            继续
          </Button>
        )}
        {fileName && <span className="video-upload-name">{fileName}</span>}
      </Space>
      {percent !== null && (
        <Progress percent={percent} status={state === 'paused' ? 'normal' : state === 'uploading' ? 'active' : undefined} aria-label="上传进度" />
      )}
      <div style={{ color: 'rgba(0,0,0,.45)', fontSize: 12, marginTop: 4 }}>支持 MP4 / WebM / Ogg，断网后可继续上传</div>
      {value && (
        // biome-ignore lint/a11y/useMediaCaption: uploaded course videos have no caption track
        <video src={String(value)} controls preload="metadata" style={{ width: '100%', maxWidth: 480, marginTop: 8, borderRadius: 6, background: '#000' }} />
      )}
    </div>
  );
}

import { liveEnd, liveStatusText } from '@common/content/liveStatus';
import type { BaseRecord } from '@refinedev/core';
import { Descriptions, Modal } from 'antd';
import dayjs from 'dayjs';
import { request } from '@/api/request';
import { LiveStatusTag } from './LiveStatusTag';

/**
 * 直播列表 · 预览: the status (derived from the times) and the channel's player. The player is the public page's own
 * (/site/live/<channel>?embed=1, hls.js there), in a frame of our origin with a draft-preview token, so an
 * unpublished channel plays too, and the stream's origin is let in by that page's CSP alone: the console's CSP
 * (connect-src 'self') stays as it is (docs/content.md "直播").
 */
export async function openLivePreview(record: BaseRecord): Promise<void> {
  let src: string;
  try {
    const env = await request<{ url: string }>({ url: '/dev-api/site/preview', method: 'post', data: { schema: 'live_broadcast', id: record.liveId } });
    src = `${env.data?.url ?? ''}&embed=1`;
  } catch {
    return; // the refusal has been shown by the http layer
  }
  const time = (v: unknown) => (v ? dayjs(Number(v)).format('YYYY-MM-DD HH:mm') : '待定');
  const end = liveEnd(record);
  Modal.info({
    title: `直播预览：${String(record.title ?? '')}`,
    icon: null,
    width: 760,
    okText: '关 闭',
    content: (
      <div data-live-preview>
        <Descriptions size="small" column={3} style={{ marginBottom: 12 }}>
          <Descriptions.Item label="状态">
            <LiveStatusTag text={liveStatusText(record, Date.now())} />
          </Descriptions.Item>
          <Descriptions.Item label="开始">{time(record.startTime)}</Descriptions.Item>
          <Descriptions.Item label="结束">{time(end)}</Descriptions.Item>
        </Descriptions>
        <iframe
          title="直播画面"
          src={src}
          style={{ width: '100%', aspectRatio: '16 / 9', border: 0, borderRadius: 8, background: '#000' }}
          allow="autoplay; fullscreen"
        />
      </div>
    ),
  });
}

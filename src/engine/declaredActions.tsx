import type { DeclaredAction, EntitySchema } from '@common/engine/types';
import { Modal, Typography } from 'antd';
import QRCode from 'qrcode';
import { request } from '@/api/request';
import type { ResourceOverride, RowAction, ToolbarAction } from './resourceTypes';

/**
 * Buttons a schema declares (x-rowActions / x-toolbar, docs/schemas.md): `open` opens the URL in a new tab (预览 of
 * the public site), `qrcode` shows a dialog with a real QR code of the absolute URL (直播 分享) drawn by the `qrcode`
 * library, `preview` asks the server for a short-lived token for this row (POST /dev-api/site/preview) and opens the
 * URL with `?preview=<token>`, so a draft shows on the public site to the operator only. `{prop}` in the URL is filled
 * from the row (URL-encoded). They join the override's buttons, so a schema needs no code for them.
 */

export function fillUrl(url: string, record: Record<string, unknown> = {}): string {
  return url.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_m, name: string) => encodeURIComponent(String(record[name] ?? '')));
}

const absolute = (url: string) => (/^https?:\/\//i.test(url) ? url : `${window.location.origin}${url}`);

async function showQrCode(title: string, url: string): Promise<void> {
  const link = absolute(url);
  const image = await QRCode.toDataURL(link, { width: 240, margin: 1, errorCorrectionLevel: 'M' });
  Modal.info({
    title,
    icon: null,
    okText: '关 闭',
    content: (
      <div style={{ textAlign: 'center' }}>
        <img src={image} alt="分享二维码" width={240} height={240} data-qrcode={link} />
        <Typography.Paragraph copyable={{ text: link }} style={{ marginTop: 8, wordBreak: 'break-all' }}>
          {link}
        </Typography.Paragraph>
      </div>
    ),
  });
}

/** Opens a draft preview: the tab is opened at the click (a popup blocker allows that), then pointed at the signed URL. */
async function openPreview(schema: EntitySchema, url: string, record: Record<string, unknown> = {}): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  try {
    const env = await request<{ token: string }>({
      url: '/dev-api/site/preview',
      method: 'post',
      data: { schema: schema.$id, id: record[schema['x-primaryKey']] },
    });
    const target = `${url}${url.includes('?') ? '&' : '?'}preview=${encodeURIComponent(env.data?.token ?? '')}`;
    if (tab) {
      tab.opener = null;
      tab.location.href = target;
    } else window.location.assign(target);
  } catch {
    tab?.close(); // the refusal has been shown by the http layer
  }
}

function run(schema: EntitySchema, action: DeclaredAction, record?: Record<string, unknown>): void {
  const url = fillUrl(action.url, record);
  if (action.kind === 'qrcode') void showQrCode(action.label, url);
  else if (action.kind === 'preview') void openPreview(schema, url, record);
  else window.open(url, '_blank', 'noopener');
}

/** The schema's declared buttons added to an override (the override's own come after them). */
export function withDeclaredActions(schema: EntitySchema, override: ResourceOverride = {}): ResourceOverride {
  const rows = schema['x-rowActions'] ?? [];
  const bar = schema['x-toolbar'] ?? [];
  if (!rows.length && !bar.length) return override;
  const rowActions: RowAction[] = rows.map((a) => ({ key: a.key, label: a.label, permission: a.permission, onClick: (record) => run(schema, a, record) }));
  const toolbar: ToolbarAction[] = bar.map((a) => ({ key: a.key, label: a.label, permission: a.permission, onClick: () => run(schema, a) }));
  return { ...override, rowActions: [...rowActions, ...(override.rowActions ?? [])], toolbar: [...toolbar, ...(override.toolbar ?? [])] };
}

import type { DeclaredAction, EntitySchema } from '@common/engine/types';
import { Modal, Typography } from 'antd';
import QRCode from 'qrcode';
import { request } from '@/api/request';
import type { ResourceOverride, RowAction, ToolbarAction } from './resourceTypes';

/**
 * Buttons a schema declares (x-rowActions / x-toolbar, docs/schemas.md): `call` calls a module route (a workflow step:
 * the list runs it through pages/CallDialog.tsx with its confirm / comment dialog), `open` opens the URL in a new tab (预览 of
 * the public site), `qrcode` shows a dialog with a real QR code of the absolute URL (直播 分享) drawn by the `qrcode`
 * library, `preview` asks the server for a short-lived token for this row (POST /dev-api/site/preview) and opens the
 * URL with `?preview=<token>`, so a draft shows on the public site to the operator only. `{prop}` in the URL is filled
 * from the row (URL-encoded). They join the override's buttons, so a schema needs no code for them.
 */

export function fillUrl(url: string, record: Record<string, unknown> = {}): string {
  return url.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_m, name: string) => encodeURIComponent(String(record[name] ?? '')));
}

/** `{prop}` in a text (a confirm, a dialog title) filled from the row as it reads. */
export function fillText(text: string, record: Record<string, unknown> = {}): string {
  return text.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_m, name: string) => String(record[name] ?? ''));
}

/**
 * The body of a `call`: a value that is exactly "{prop}" is the row's value as it is (number, string, …; "{ids}" the
 * selected keys as an array), "{prop}" inside a longer text is filled in as text ({ids} joined by commas), anything
 * else is sent literally.
 */
export function fillBody(body: Record<string, unknown> = {}, record: Record<string, unknown> = {}, ids: unknown[] = []): Record<string, unknown> {
  const values: Record<string, unknown> = { ...record, ids };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'string') out[key] = value;
    else {
      const whole = /^\{([A-Za-z][A-Za-z0-9]*)\}$/.exec(value);
      out[key] = whole
        ? (values[whole[1]] ?? null)
        : value.replace(/\{([A-Za-z][A-Za-z0-9]*)\}/g, (_m, name: string) => {
            const v = values[name];
            return Array.isArray(v) ? v.join(',') : String(v ?? '');
          });
    }
  }
  return out;
}

/** `when` of a call action (and x-rowWhen): every named row value is one of its listed values (compared as text). */
export function whenMatches(when: Record<string, unknown[]> | undefined, record: Record<string, unknown> = {}): boolean {
  if (!when) return true;
  return Object.entries(when).every(([name, allowed]) => allowed.some((v) => String(v) === String(record[name] ?? '')));
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
  // `call` actions carry their declaration: the list runs them (it holds the dialogs, the selection and the refresh).
  const rowActions: RowAction[] = rows.map((a) =>
    a.kind === 'call'
      ? { key: a.key, label: a.label, permission: a.permission, danger: a.danger, call: a, visible: (record) => whenMatches(a.when, record), onClick: () => {} }
      : { key: a.key, label: a.label, permission: a.permission, onClick: (record) => run(schema, a, record) },
  );
  const toolbar: ToolbarAction[] = bar.map((a) =>
    a.kind === 'call'
      ? { key: a.key, label: a.label, permission: a.permission, danger: a.danger, selection: a.selection, call: a, onClick: () => {} }
      : { key: a.key, label: a.label, permission: a.permission, onClick: () => run(schema, a) },
  );
  return { ...override, rowActions: [...rowActions, ...(override.rowActions ?? [])], toolbar: [...toolbar, ...(override.toolbar ?? [])] };
}

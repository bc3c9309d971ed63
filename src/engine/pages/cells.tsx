import type { ListRender, PropertySchema } from '@common/engine/types';
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import { DictTag } from '@/components/DictTag';
import { ImagePreview } from '@/components/ImagePreview';
import { parseTime } from '@/utils/format';
import { HoverTooltip } from './HoverTooltip';

/**
 * How a value is shown in the table and on the show page, by x-list.render (docs/schemas.md): text, dict (DictTag),
 * image (thumbnail + preview), video (a small player), color (swatch + value), date (YYYY-MM-DD), datetime (YYYY-MM-DD HH:mm:ss), money, link, ellipsis (one line,
 * full text in a tooltip). `switch` is interactive and lives in the list page.
 */
const money = new Intl.NumberFormat('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatMoney(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? `¥${money.format(n)}` : String(value);
}

export function renderOf(prop: PropertySchema): ListRender {
  if (prop['x-list']?.render) return prop['x-list'].render;
  if (prop['x-dict']) return 'dict';
  return 'text';
}

/** A relation property shows the label the server joined into the row (x-relation.as, default its label). */
export function relationLabel(prop: PropertySchema, record: Record<string, unknown> | undefined, value: unknown): unknown {
  const rel = prop['x-relation'];
  if (!rel || !record) return value;
  const label = record[rel.as ?? rel.label];
  return label === undefined || label === null || label === '' ? value : label;
}

export function displayValue(prop: PropertySchema, value: unknown, render: ListRender = renderOf(prop)): ReactNode {
  if (value === undefined || value === null || value === '') return render === 'dict' ? null : '';
  if ((render === 'text' || render === 'switch') && (prop['x-enumLabels'] || prop['x-enumColors'])) {
    // x-enumLabels / x-enumColors: a status without dictionary rows shown by its label, as a coloured tag when given.
    const label = prop['x-enumLabels']?.[String(value)] ?? String(value);
    const color = prop['x-enumColors']?.[String(value)];
    return color ? <Tag color={color}>{label}</Tag> : label;
  }
  switch (render) {
    case 'dict':
    case 'switch':
      return prop['x-dict'] ? <DictTag type={prop['x-dict']} value={value} /> : String(value);
    case 'image':
      return <ImagePreview src={value as string} width={50} height={50} />;
    case 'video':
      // A small player: the list previews the clip in place (the browser fetches only what it plays, by range).
      // biome-ignore lint/a11y/useMediaCaption: uploaded course videos have no caption track
      return <video src={String(value)} controls preload="none" style={{ width: 120, height: 68, background: '#000', borderRadius: 4 }} />;
    case 'color':
      return (
        <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
          <span aria-hidden style={{ width: 16, height: 16, borderRadius: 3, background: String(value), border: '1px solid rgba(0,0,0,.15)' }} />
          {String(value)}
        </span>
      );
    case 'date':
      return parseTime(value as number, '{y}-{m}-{d}') ?? String(value);
    case 'datetime':
      return parseTime(value as number) ?? String(value);
    case 'money':
      return formatMoney(value);
    case 'link': {
      const href = String(value);
      return /^(https?:)?\/\//i.test(href) || href.startsWith('/') ? (
        <a href={href} target="_blank" rel="noreferrer">
          {href}
        </a>
      ) : (
        href
      );
    }
    case 'ellipsis': {
      const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
      // The table cell cuts the line (column ellipsis); the tooltip tells the rest (mounted on the first hover).
      return <HoverTooltip text={text} />;
    }
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

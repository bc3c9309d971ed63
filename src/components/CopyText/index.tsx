import { CopyOutlined } from '@ant-design/icons';
import { App, Tooltip } from 'antd';
import type { ReactNode } from 'react';

/** Copy-text helper (spec §2.4): the text with a copy icon; clicking copies it and says 复制成功. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('复制失败');
}

export function CopyText({ text, children }: { text: string; children?: ReactNode }) {
  const { message } = App.useApp();
  const copy = async () => {
    try {
      await copyText(text);
      message.success('复制成功');
    } catch {
      message.error('复制失败');
    }
  };
  return (
    <span className="copy-text">
      {children ?? text}
      <Tooltip title="复制">
        <CopyOutlined role="button" aria-label="复制" style={{ marginLeft: 6, cursor: 'pointer', color: 'var(--zy-primary, #409EFF)' }} onClick={copy} />
      </Tooltip>
    </span>
  );
}

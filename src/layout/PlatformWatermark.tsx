import { Watermark } from 'antd';
import type { ReactNode } from 'react';

/**
 * The platform watermark of 平台设置 (platform info `watermark`) drawn over the signed-in console, as configured;
 * without one the frame is rendered as is (no extra wrapper). Light grey and sparse so it never hides data.
 */
export function PlatformWatermark({ text, children }: { text: string | null | undefined; children: ReactNode }) {
  const content = text?.trim();
  if (!content) return children;
  return (
    <Watermark className="zy-watermark" content={content} gap={[160, 160]} font={{ color: 'rgba(0,0,0,.07)', fontSize: 15 }} zIndex={9}>
      {children}
    </Watermark>
  );
}

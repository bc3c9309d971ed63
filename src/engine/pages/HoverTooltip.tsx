import { Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';

/** antd Tooltip's own mouseEnterDelay (0.1 s): a pointer just passing over a cell shows nothing, as before. */
const ENTER_DELAY_MS = 100;

/**
 * A table cell's full text in a tooltip (x-list.render ellipsis), mounted on the first hover only. An antd Tooltip is
 * a popup trigger with its own observers and effects; three ellipsis columns put sixty of them on a 20-row page,
 * a good part of rendering the page's rows (issue 15, fast switches). Before the first hover the cell is the same
 * plain span; the pointer resting on it for the tooltip's usual delay mounts the tooltip already open, and from then
 * on it behaves as before.
 */
export function HoverTooltip({ text }: { text: string }) {
  const [armed, setArmed] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  if (!armed)
    return (
      // biome-ignore lint/a11y/noStaticElementInteractions: hovering only mounts the tooltip; antd's Tooltip listens on the same span
      <span
        onMouseEnter={() => {
          window.clearTimeout(timer.current);
          timer.current = window.setTimeout(() => setArmed(true), ENTER_DELAY_MS);
        }}
        onMouseLeave={() => window.clearTimeout(timer.current)}
      >
        {text}
      </span>
    );
  return (
    <Tooltip title={text} placement="topLeft" defaultOpen>
      <span>{text}</span>
    </Tooltip>
  );
}

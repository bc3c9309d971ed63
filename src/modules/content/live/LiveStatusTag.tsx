import type { LiveStatusText } from '@common/content/liveStatus';
import { Tag } from 'antd';

const COLOR: Record<LiveStatusText, string> = { 预告: 'blue', 直播中: 'red', 已结束: 'default', 回放: 'purple' };

/** A broadcast's status word (预告, 直播中, 已结束, 回放) as a coloured tag. */
export function LiveStatusTag({ text }: { text: LiveStatusText }) {
  return (
    <Tag color={COLOR[text]} data-live-status={text}>
      {text}
    </Tag>
  );
}

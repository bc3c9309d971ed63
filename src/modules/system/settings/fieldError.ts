/**
 * The server names the field in its Chinese messages ('每人测评次数上限不能大于 99', '注册默认角色"x"不存在或已停用').
 * Answers the form field whose label starts the message (the longest label wins), or null when none does.
 */
export function fieldOfMessage(message: string, labels: Record<string, string>): string | null {
  let best: string | null = null;
  let length = 0;
  for (const [name, label] of Object.entries(labels)) {
    if (label && message.startsWith(label) && label.length > length) {
      best = name;
      length = label.length;
    }
  }
  return best;
}

export const STALE_HINT = '已在别处被修改';

/** The tool cabinet's five groups (spec §2.4); `route` is the hash route of the tool site. */
export interface ToolItem {
  title: string;
  route: string;
  /** Shown only when the user info carries the diagnosis flag. */
  diagnosisOnly?: boolean;
}

export interface ToolGroup {
  title: string;
  items: ToolItem[];
}

export const TOOL_GROUPS: ToolGroup[] = [
  {
    title: '招生计划',
    items: [
      { title: '普通批', route: 'plan-general' },
      { title: '提前批', route: 'plan-advance' },
    ],
  },
  {
    title: '历年分数线',
    items: [
      { title: '院校分数线', route: 'school-score' },
      { title: '专业分数线', route: 'major-score' },
    ],
  },
  {
    title: '数据库',
    items: [
      { title: '院校库', route: 'school-library' },
      { title: '专业库', route: 'major-library' },
      { title: '职业库', route: 'career-library' },
    ],
  },
  {
    title: '榜单',
    items: [
      { title: '院校排名', route: 'school-rank' },
      { title: '学科评估', route: 'subject-review' },
      { title: '双一流', route: 'double-first-class' },
    ],
  },
  {
    title: '更多',
    items: [
      { title: '批次线', route: 'batch-line' },
      { title: '一分一段', route: 'score-segment' },
      { title: '同分去向', route: 'same-score' },
      { title: '选科查询', route: 'subject-selection' },
      { title: '诊断换算', route: 'diagnosis', diagnosisOnly: true },
    ],
  },
];

/** The groups a user sees: 诊断换算 only with the diagnosis flag; empty groups dropped. */
export function visibleGroups(diagnosis: boolean): ToolGroup[] {
  return TOOL_GROUPS.map((g) => ({ ...g, items: g.items.filter((i) => diagnosis || !i.diagnosisOnly) })).filter((g) => g.items.length > 0);
}

export interface ToolData {
  token: string;
  query: Record<string, unknown>;
  roleId: number;
  hostname: string;
}

/** UTF-8 JSON → base64, URL-encoded: the `data` parameter the tool site decodes. */
export function encodeToolData(data: ToolData): string {
  const bytes = new TextEncoder().encode(JSON.stringify(data));
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return encodeURIComponent(btoa(bin));
}

/**
 * toolboxaddr + hash route + encoded data (spec §7.10). A relative address is resolved against the console. The token
 * is left out of the address (it would sit in the tool's history and logs): the tool asks for it by postMessage and
 * the console answers only to the tool's origin (isToolboxReadyMessage).
 */
export function toolUrl(toolboxaddr: string, route: string, data: ToolData, base = window.location.origin): string {
  const root = new URL(toolboxaddr, base);
  root.hash = `/${route}?data=${encodeToolData({ ...data, token: '' })}`;
  return root.toString();
}

/** The tool's handshake: it is loaded and asks for the session token. */
export function isToolboxReadyMessage(data: unknown): boolean {
  return Boolean(data && typeof data === 'object' && (data as { type?: unknown }).type === 'toolboxReady');
}

/** A message from the tool iframe saying the session is gone (several spellings seen in the field). */
export function isTokenExpiredMessage(data: unknown): boolean {
  if (!data || typeof data !== 'object') return false;
  const type = (data as { type?: unknown }).type;
  return type === 'tokenExpired' || type === 'token_expired' || type === 'tokenexpired';
}

/**
 * The iframe sandbox of a tool. A tool of another origin (TOOLBOX_ORIGINS) keeps its own origin inside the sandbox
 * (allow-same-origin refers to ITS origin, which cannot reach the console's). The built-in tool site (/toolbox/) is of
 * the console's own origin: there allow-scripts with allow-same-origin would let it lift its own sandbox (Chromium
 * warns so), and without allow-same-origin its API calls would come from an opaque origin. It is this server's own
 * code, so it gets no sandbox at all: an honest nothing rather than a sandbox that is not one.
 */
export function toolSandbox(toolOrigin: string, pageOrigin = window.location.origin): string | undefined {
  return toolOrigin === pageOrigin ? undefined : 'allow-scripts allow-same-origin allow-forms allow-popups';
}

/**
 * 平台设置: the one platform row (§1, §3 Platform info) plus the notice texts and tool address. The server stores it
 * as it is (server/db/types.ts PlatformTable) and GET /dev-api/system/platform answers every field; the console edits
 * it (src/api/settings.ts).
 */
export interface PlatformSettings {
  id: number;
  title: string;
  /** YYYY-MM-DD, the licence expiry. */
  expiredate: string;
  favicon: string | null;
  watermark: string | null;
  h5addr: string | null;
  logo: string | null;
  smalllogo: string | null;
  qrUrl: string | null;
  kfPhone: string | null;
  pv: number;
  registerNum: number;
  wxapp: string | null;
  appdown: string | null;
  gwaddr: string | null;
  appId: string | null;
  storeId: number;
  toolboxaddr: string | null;
  tipsTitle: string | null;
  /** Three lines separated by \n. */
  tips: string | null;
  gddesc: string | null;
  registerEnabled: number;
  updateTime: number | null;
}

/** What PUT /dev-api/system/platform accepts (counters, store id and the register switch are not edited here). */
export type PlatformEdit = Pick<
  PlatformSettings,
  | 'title'
  | 'expiredate'
  | 'favicon'
  | 'watermark'
  | 'h5addr'
  | 'logo'
  | 'smalllogo'
  | 'qrUrl'
  | 'kfPhone'
  | 'wxapp'
  | 'appdown'
  | 'gwaddr'
  | 'appId'
  | 'toolboxaddr'
  | 'tipsTitle'
  | 'tips'
  | 'gddesc'
>;

/** Platform info (spec §3 field names), from /appv2/api/index/platformInfo: what the console shows of the row, and the licence state. */
export interface PlatformInfo
  extends Pick<
    PlatformSettings,
    | 'title'
    | 'expiredate'
    | 'favicon'
    | 'watermark'
    | 'h5addr'
    | 'logo'
    | 'smalllogo'
    | 'qrUrl'
    | 'pv'
    | 'registerNum'
    | 'wxapp'
    | 'appdown'
    | 'gwaddr'
    | 'appId'
    | 'storeId'
  > {
  /** The expiry in epoch seconds. */
  expiredate_time: number;
  /** The licence has expired: the console's guard sends signed-in users to /beOverdue. */
  expired: boolean;
  mobile: { kf_phone: string | null };
  registerEnabled: boolean;
}

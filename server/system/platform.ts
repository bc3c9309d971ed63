import type { Kysely } from 'kysely';
import type { PlatformInfo } from '../../common/system/platform.js';
import type { Database, PlatformTable } from '../db/types.js';

/** End of the licence's last day, local time. */
export function expiryTime(expiredate: string): number {
  const t = new Date(`${expiredate}T23:59:59`).getTime();
  return Number.isNaN(t) ? 0 : t;
}

export const isExpired = (p: Pick<PlatformTable, 'expiredate'>, now = Date.now()) => expiryTime(p.expiredate) < now;

export async function getPlatform(db: Kysely<Database>): Promise<PlatformTable> {
  return db.selectFrom('sysPlatform').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
}

/** Platform info as the console reads it (spec §3 field names). */
export function platformInfo(p: PlatformTable, now = Date.now()): PlatformInfo {
  return {
    title: p.title,
    expiredate: p.expiredate,
    expiredate_time: Math.floor(expiryTime(p.expiredate) / 1000),
    expired: isExpired(p, now),
    favicon: p.favicon,
    watermark: p.watermark,
    h5addr: p.h5addr,
    logo: p.logo,
    smalllogo: p.smalllogo,
    qrUrl: p.qrUrl,
    mobile: { kf_phone: p.kfPhone },
    pv: p.pv,
    registerNum: p.registerNum,
    wxapp: p.wxapp,
    appdown: p.appdown,
    gwaddr: p.gwaddr,
    appId: p.appId,
    storeId: p.storeId,
    registerEnabled: p.registerEnabled === 1,
  };
}

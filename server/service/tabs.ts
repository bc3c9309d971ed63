import { sql } from 'kysely';
import type { Db } from '../db/types.js';

/**
 * Small readers of the 服务中心 lists for the home page's dashboard tabs (推荐应用, 资源下载, 营销图库): only what is
 * on the shelf (status '1'), at most `n` rows. The tables are schema-engine tables (schemas/service/*.json), so the
 * SQL is written by hand here, with bound parameters only.
 */

const cap = (n: number) => Math.max(1, Math.min(50, Math.trunc(n) || 1));

export interface RecommendedApp {
  appId: number;
  appName: string;
  icon: string | null;
  category: string;
  summary: string;
  installCount: number;
}

/** Recommended apps first, then by the shelf order. */
export async function recommendedApps(db: Db, n: number): Promise<RecommendedApp[]> {
  const res = await sql<Record<string, unknown>>`select app_id, app_name, icon, category, summary, install_count from service_app
    where status = '1' order by case when recommended = '1' then 0 else 1 end, sort, app_id limit ${cap(n)}`.execute(db);
  return res.rows.map((r) => ({
    appId: Number(r.appId),
    appName: String(r.appName),
    icon: (r.icon as string | null) ?? null,
    category: String(r.category),
    summary: String(r.summary),
    installCount: Number(r.installCount ?? 0),
  }));
}

export interface LatestResource {
  resourceId: number;
  title: string;
  category: string;
  fileName: string | null;
  downloadCount: number;
  createTime: number;
}

/** Newest resources first. */
export async function latestResources(db: Db, n: number): Promise<LatestResource[]> {
  const res = await sql<Record<string, unknown>>`select resource_id, title, category, file_name, download_count, create_time from service_resource
    where status = '1' order by create_time desc, resource_id desc limit ${cap(n)}`.execute(db);
  return res.rows.map((r) => ({
    resourceId: Number(r.resourceId),
    title: String(r.title),
    category: String(r.category),
    fileName: (r.fileName as string | null) ?? null,
    downloadCount: Number(r.downloadCount ?? 0),
    createTime: Number(r.createTime),
  }));
}

export interface LatestGallery {
  galleryId: number;
  title: string;
  category: string;
  image: string;
  downloadCount: number;
  createTime: number;
}

/** Newest gallery materials first. */
export async function latestGallery(db: Db, n: number): Promise<LatestGallery[]> {
  const res = await sql<Record<string, unknown>>`select gallery_id, title, category, image, download_count, create_time from service_gallery
    where status = '1' order by create_time desc, gallery_id desc limit ${cap(n)}`.execute(db);
  return res.rows.map((r) => ({
    galleryId: Number(r.galleryId),
    title: String(r.title),
    category: String(r.category),
    image: String(r.image),
    downloadCount: Number(r.downloadCount ?? 0),
    createTime: Number(r.createTime),
  }));
}

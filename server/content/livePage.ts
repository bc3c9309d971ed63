import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { liveStatusOf, liveStatusText } from '../../common/content/liveStatus.js';
import { formatTime } from '../engine/model.js';

/**
 * The /site/live/<channel> page's player (docs/content.md "直播"): what a broadcast shows by its derived status, the
 * two script files it loads, and the CSP that lets exactly its stream's origin in. The page itself is rendered by
 * site.ts; this file owns the player part.
 *
 * - 预告: the poster and 直播尚未开始 with the start time (within a day of it, a timer that reloads the page at the
 *   start); 直播中: the pull address, muted autoplay (browsers allow
 *   only muted autoplay); 已结束: the replay address when there is one (回放), else the poster and 直播已结束.
 * - Playback: hls.js (its light build, from node_modules — never a CDN) and live-player.js, both files of the site's
 *   own origin, so `script-src 'self'` holds. hls.js fetches the playlist and segments (connect-src) and feeds the
 *   video through Media Source Extensions (a blob: media URL, already allowed); Safari's own HLS fetches through the
 *   video element (media-src). So the page's CSP adds the stream's origin to connect-src and media-src, and only on
 *   this page: the console's and the rest of the site's CSP are unchanged.
 * - Only http(s) addresses play (site-relative ones are of our own origin); anything else shows 暂无可播放的地址.
 */

type Rec = Record<string, unknown>;

const ASSETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const require = createRequire(import.meta.url);
const HLS_FILE = require.resolve('hls.js/dist/hls.light.min.js');
const HLS_VERSION = (require('hls.js/package.json') as { version: string }).version;
const PLAYER_SCRIPT = `<script src="/site/assets/live-player.js?v=${HLS_VERSION}" defer></script>`;
/** The script tags of a page with a player (versioned, so a cached copy of an older hls.js is not used). */
const PLAYER_SCRIPTS = `<script src="/site/assets/hls.light.min.js?v=${HLS_VERSION}" defer></script>${PLAYER_SCRIPT}`;
/** A 预告 page starting within this long reloads itself at the start (live-player.js), so a waiting viewer sees it begin. */
const START_WATCH_MS = 24 * 60 * 60 * 1000;

const escHtml = (value: unknown) =>
  String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** An http(s) address (or a site-relative one) to play, else ''. */
export function playableUrl(value: unknown): string {
  const url = String(value ?? '').trim();
  if (/^https?:\/\/[^\s"'<>]+$/i.test(url)) {
    try {
      new URL(url);
      return url;
    } catch {
      return '';
    }
  }
  return url.startsWith('/') && !url.startsWith('//') && !/[\s"'<>]/.test(url) ? url : '';
}

/** The origin a stream is fetched from, for the page's CSP; none for a site-relative address ('self'). */
export function streamOrigin(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  const origin = new URL(url).origin;
  // URL normalises the host; anything but scheme, host and port would not belong in a CSP source list.
  return /^https?:\/\/[A-Za-z0-9.-]+(:\d+)?$|^https?:\/\/\[[0-9a-fA-F:.]+\](:\d+)?$/.test(origin) ? origin : undefined;
}

/** The CSP with `origin` added to connect-src and media-src (the directives a stream is fetched under). */
export function cspWithStream(csp: string, origin: string | undefined): string {
  if (!origin) return csp;
  return csp
    .split(';')
    .map((d) => {
      const name = d.trim().split(/\s+/)[0];
      return name === 'connect-src' || name === 'media-src' ? `${d.trim()} ${origin}` : d.trim();
    })
    .join(';');
}

export interface LivePlayer {
  /** The status word shown (预告, 直播中, 已结束, 回放). */
  status: string;
  /** The player (or poster and notice) HTML. */
  html: string;
  /** The address played, if any. */
  src: string;
  /** The script tags the page needs: hls.js and the player, the start timer alone, or none. */
  scripts: string;
}

const when = (v: unknown) => (v ? formatTime(Number(v)).slice(0, 16) : '');

/** What a broadcast shows at `now`. */
export function livePlayer(live: Rec, now: number): LivePlayer {
  const code = liveStatusOf(live, now);
  const status = liveStatusText(live, now);
  const poster = playableUrl(live.poster);
  const posterImg = poster ? `<img src="${escHtml(poster)}" alt="直播海报" data-live-poster style="max-width:100%;border-radius:8px;display:block">` : '';
  const notice = (text: string) => `<p class="live-notice" data-live-notice>${escHtml(text)}</p>`;
  const video = (src: string, kind: 'live' | 'replay') =>
    `<video data-live-src="${escHtml(src)}" data-live-kind="${kind}" controls playsinline preload="none"${kind === 'live' ? ' autoplay muted' : ''}${poster ? ` poster="${escHtml(poster)}"` : ''}></video><p class="live-notice" role="alert" data-live-message hidden></p>`;
  const still = (text: string) => ({ status, src: '', scripts: '', html: `${posterImg}${notice(text)}` });
  if (code === '0') {
    const start = when(live.startTime);
    const wait = Number(live.startTime) - now;
    if (!start) return still('直播尚未开始，开始时间待定');
    const page = still(`直播尚未开始，开始时间：${start}`);
    if (!(wait > 0 && wait <= START_WATCH_MS)) return page;
    // The seconds to wait, counted here rather than an instant: the viewer's clock may be off.
    return { ...page, scripts: PLAYER_SCRIPT, html: `${page.html}<span hidden data-live-starts-in="${Math.ceil(wait / 1000)}"></span>` };
  }
  if (code === '1') {
    const src = playableUrl(live.pullUrl);
    return src ? { status, src, scripts: PLAYER_SCRIPTS, html: video(src, 'live') } : still('直播中，暂无可播放的直播地址');
  }
  const replay = playableUrl(live.replayUrl);
  return replay ? { status, src: replay, scripts: PLAYER_SCRIPTS, html: video(replay, 'replay') } : still('直播已结束');
}

/** The player alone, for the console's 预览 dialog (an iframe of this page with ?embed=1). */
export function embedPage(title: string, player: LivePlayer): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escHtml(title)}</title>
<style>body{margin:0;background:#000;color:#fff;font:14px/1.6 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif}video{width:100%;height:100vh;display:block;background:#000}img{margin:0 auto}.live-notice{margin:0;padding:12px 16px;background:#1f2329;color:#fff;text-align:center}</style>
</head><body data-live-status="${escHtml(player.status)}">${player.html}${player.scripts}</body></html>`;
}

/** Answers the page with the CSP that lets its stream in. */
export function allowStream(reply: FastifyReply, player: LivePlayer): void {
  const csp = reply.getHeader('content-security-policy');
  if (typeof csp === 'string') reply.header('content-security-policy', cspWithStream(csp, streamOrigin(player.src)));
}

/** GET /site/assets/hls.light.min.js and /site/assets/live-player.js (registered before site.ts's /site/assets/:name). */
export function registerPlayerAssets(app: FastifyInstance): void {
  const hls = fs.readFileSync(HLS_FILE);
  const player = fs.readFileSync(path.join(ASSETS_DIR, 'live-player.js'));
  const send = (reply: FastifyReply, body: Buffer) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(body);
  app.get('/site/assets/hls.light.min.js', (_request, reply) => send(reply, hls));
  app.get('/site/assets/live-player.js', (_request, reply) => send(reply, player));
}

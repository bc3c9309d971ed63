import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { EngineEnv } from '../engine/context.js';
import { type Entity, formatTime, rowToRecord } from '../engine/model.js';
import { publishedRow, publishedRows } from '../engine/publish.js';
import { aliveCondition, andAll, findRow, type Row } from '../engine/store.js';
import { allowStream, embedPage, livePlayer, registerPlayerAssets } from './livePage.js';
import { type PreviewTokens, previewOf } from './preview.js';

/**
 * The public site at /site/ (docs/content.md): server-rendered HTML from the published content, in the theme of
 * 主题设置, so an operator previews what they publish. No console bundle and no script at all (a strict CSP applies:
 * inline styles only); videos play with the browser's own controls over HTTP range requests (/profile/…). The one
 * exception is the live page, which loads hls.js and its player as files of our own origin (livePage.ts).
 */

const ASSETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'assets');
const ASSET_NAME = /^[a-z0-9-]+\.(svg|pdf)$/;

type Rec = Record<string, unknown>;

/** Escapes text for HTML content and attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Only http(s) and site-relative addresses become links or sources (stored values are checked, this is belt and braces). */
export function safeUrl(value: unknown): string {
  const url = String(value ?? '').trim();
  if (/^https?:\/\//i.test(url) || (url.startsWith('/') && !url.startsWith('//'))) return esc(url);
  return '';
}

const COLOR = /^#[0-9a-fA-F]{6}$/;

interface Chrome {
  siteName: string;
  logo: string;
  primary: string;
  header: string;
  footer: string;
  phone: string;
  icp: string;
  links: Rec[];
}

export class Site {
  constructor(private readonly env: EngineEnv) {}

  private entity(id: string): Entity {
    const e = this.env.entities.get(id);
    if (!e) throw new Error(`缺少 schema ${id}`);
    return e;
  }

  /** The one record of a singleton schema (the oldest row), or {} when none was saved yet. */
  async single(id: string): Promise<Rec> {
    const e = this.entity(id);
    const res = await sql<Row>`select * from ${sql.table(e.table)} as t where ${andAll([aliveCondition(e)])}
      order by ${sql.ref(`t.${e.pk.column}`)} limit 1`.execute(this.env.k);
    return res.rows[0] ? rowToRecord(e, res.rows[0]) : {};
  }

  async list(id: string, where: Rec = {}, limit?: number): Promise<Rec[]> {
    const e = this.entity(id);
    return (await publishedRows(this.env, e, { where, limit })).map((r) => rowToRecord(e, r));
  }

  async one(id: string, key: number): Promise<Rec | undefined> {
    const e = this.entity(id);
    const row = await publishedRow(this.env, e, key);
    return row ? rowToRecord(e, row) : undefined;
  }

  /** A row whatever its publish state (draft preview with a valid token only). */
  async draft(id: string, key: number): Promise<Rec | undefined> {
    const e = this.entity(id);
    const row = await findRow(this.env.k, e, key);
    return row ? rowToRecord(e, row) : undefined;
  }

  async chrome(): Promise<Chrome> {
    const [website, theme, links] = await Promise.all([this.single('site_website'), this.single('site_theme'), this.list('site_friend_link', {}, 20)]);
    return {
      siteName: String(website.siteName ?? '志愿填报服务中心'),
      logo: safeUrl(website.logo),
      primary: COLOR.test(String(theme.primaryColor)) ? String(theme.primaryColor) : '#1677ff',
      header: COLOR.test(String(theme.headerColor)) ? String(theme.headerColor) : '#001529',
      footer: String(theme.footerText ?? ''),
      phone: String(website.phone ?? ''),
      icp: String(website.icp ?? ''),
      links,
    };
  }
}

/** Shown above a draft opened with a preview token. */
const PREVIEW_NOTICE = '预览：此内容可能尚未发布，仅持预览链接的后台人员可见，链接 10 分钟内有效';

function layout(c: Chrome, title: string, body: string, notice = ''): string {
  const nav = [
    ['/site/', '首页'],
    ['/site/news', '资讯'],
    ['/site/classroom', '课堂'],
    ['/site/services', '服务'],
    ['/site/library', '资料库'],
    ['/site/sites', '服务网点'],
    ['/site/network', '全国网点'],
    ['/site/about', '关于我们'],
  ]
    .map(([href, label]) => `<a href="${href}">${label}</a>`)
    .join('');
  const links = c.links.map((l) => `<a href="${safeUrl(l.url)}" rel="noopener noreferrer" target="_blank">${esc(l.name)}</a>`).join('');
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} - ${esc(c.siteName)}</title>
<style>
*{box-sizing:border-box}body{margin:0;font:15px/1.7 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;color:#1f2329;background:#f5f7fa}
a{color:${c.primary};text-decoration:none}a:hover{text-decoration:underline}
header{background:${c.header};color:#fff}header .in{display:flex;align-items:center;gap:24px;height:64px}
header .brand{display:flex;align-items:center;gap:10px;color:#fff;font-size:20px;font-weight:600}header .brand img{width:36px;height:36px;border-radius:6px}
header nav a{color:rgba(255,255,255,.85);margin-right:20px}header nav a:hover{color:#fff}
.in{max-width:1200px;margin:0 auto;padding:0 20px}main{padding:24px 0 48px}
.banners{display:grid;grid-auto-flow:column;grid-auto-columns:100%;overflow-x:auto;scroll-snap-type:x mandatory;border-radius:10px}
.banners a{scroll-snap-align:start;position:relative;display:block}.banners img{width:100%;aspect-ratio:3/1;object-fit:cover;display:block}
.banners span{position:absolute;left:24px;bottom:18px;color:#fff;font-size:22px;text-shadow:0 1px 4px rgba(0,0,0,.5)}
h2{font-size:20px;margin:32px 0 14px;border-left:4px solid ${c.primary};padding-left:10px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:16px}
.card{background:#fff;border-radius:10px;overflow:hidden;box-shadow:0 1px 3px rgba(0,0,0,.06)}.card img{width:100%;aspect-ratio:16/9;object-fit:cover;display:block}
.card .b{padding:12px 14px}.card h3{font-size:16px;margin:0 0 6px}.muted{color:#8a919f;font-size:13px}
.modules{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:12px}.modules a{color:#fff;border-radius:10px;padding:18px;font-size:16px;font-weight:600}
.headlines{background:#fff;border-radius:10px;padding:10px 16px}.headlines li{margin:4px 0}
.middle{display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:16px}.middle a{display:block;color:#fff;border-radius:10px;padding:20px 22px}.middle b{display:block;font-size:20px}
.ad{display:block;margin:24px 0 0}.ad img{width:100%;aspect-ratio:5/1;object-fit:cover;border-radius:10px;display:block}
.hrefs a{display:inline-block;background:#fff;border-radius:16px;padding:4px 14px;margin:0 8px 8px 0}
article{background:#fff;border-radius:10px;padding:28px 32px}article img{max-width:100%}
video{width:100%;max-height:540px;background:#000;border-radius:8px}
footer{background:#1f2329;color:#c9cdd4;padding:24px 0;font-size:13px}footer a{color:#c9cdd4;margin-right:16px}
table{border-collapse:collapse;width:100%;background:#fff}td,th{border:1px solid #e5e6eb;padding:8px 12px;text-align:left}
</style></head>
<body>${notice ? `<div role="status" data-preview style="background:#fffbe6;border-bottom:1px solid #ffe58f;color:#874d00;text-align:center;padding:8px">${esc(notice)}</div>` : ''}<header><div class="in"><a class="brand" href="/site/">${c.logo ? `<img src="${c.logo}" alt="">` : ''}${esc(c.siteName)}</a><nav>${nav}</nav></div></header>
<main><div class="in">${body}</div></main>
<footer><div class="in"><div>${links ? `友情链接：${links}` : ''}</div><div>${esc(c.footer)}</div><div>${c.phone ? `客服电话：${esc(c.phone)}　` : ''}${esc(c.icp)}　<a href="/site/agreement/1">用户协议</a><a href="/site/privacy">隐私政策</a></div></div></footer>
</body></html>`;
}

const card = (href: string, image: unknown, title: unknown, sub: string) =>
  `<div class="card"><a href="${href}">${safeUrl(image) ? `<img src="${safeUrl(image)}" alt="" loading="lazy">` : ''}</a><div class="b"><h3><a href="${href}">${esc(title)}</a></h3><div class="muted">${sub}</div></div></div>`;

/** Registers GET /site/… (HTML) and /site/assets/<name>.svg|pdf (the seeded placeholder images and documents). */
export function registerSite(app: FastifyInstance, getEnv: () => EngineEnv, tokens: PreviewTokens): void {
  let site: Site | undefined;
  const s = () => {
    site ??= new Site(getEnv());
    return site;
  };
  // A preview (draft) answer is never stored by a cache nor indexed.
  const html = (reply: FastifyReply, text: string, status = 200, preview = false) => {
    if (preview) reply.header('x-robots-tag', 'noindex');
    return reply
      .status(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', preview ? 'no-store' : 'no-cache')
      .send(text);
  };
  const badPreview = async (reply: FastifyReply) =>
    html(reply, layout(await s().chrome(), '预览链接无效', '<article><h1>预览链接无效或已过期</h1><p>请回到后台重新点击「预览」。</p></article>'), 403);
  /**
   * The row a one-record page shows: published and in schedule, or — with a valid preview token for exactly this
   * row — whatever its state. `invalid` when the request carries a token that is not valid (expired, forged, another row).
   */
  const rowFor = async (request: FastifyRequest, schema: string, key: number): Promise<{ rec?: Rec; preview: boolean; invalid: boolean }> => {
    const grant = previewOf(tokens, request);
    if (grant === undefined) return { rec: await s().one(schema, key), preview: false, invalid: false };
    if (!grant || grant.schema !== schema || grant.id !== key) return { preview: false, invalid: true };
    return { rec: await s().draft(schema, key), preview: true, invalid: false };
  };
  const notFound = async (reply: FastifyReply, what: string) =>
    html(reply, layout(await s().chrome(), '未找到', `<article><h1>${esc(what)}不存在或未发布</h1><p><a href="/site/">返回首页</a></p></article>`), 404);
  const idParam = (raw: string) => (/^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN);

  app.get('/site', (_request, reply) => reply.redirect('/site/'));
  app.get('/site/', async (request, reply) => {
    const grant = previewOf(tokens, request);
    if (grant === null || (grant && grant.schema !== 'content_banner')) return badPreview(reply);
    const [c, published, modules, middles, ads, headlines, news, services, specialties, hrefs] = await Promise.all([
      s().chrome(),
      s().list('content_banner', { position: '1' }, 10),
      s().list('content_home_module', {}, 12),
      s().list('site_middle', {}, 6),
      s().list('site_ad', { position: '1' }, 1),
      s().list('content_headline', {}, 8),
      s().list('content_news', {}, 6),
      s().list('content_good_service', {}, 8),
      s().list('content_specialty', {}, 8),
      s().list('content_href', {}, 20),
    ]);
    // A banner's preview shows it first in the carousel, whatever its state, position or schedule.
    const draft = grant ? await s().draft('content_banner', grant.id) : undefined;
    if (grant && !draft) return badPreview(reply);
    const banners = draft ? [draft, ...published.filter((b) => b.bannerId !== draft.bannerId)] : published;
    const body = [
      banners.length
        ? `<section class="banners" aria-label="轮播图">${banners
            .map(
              (b) =>
                `<a href="${safeUrl(b.link) || '#'}" data-banner="${esc(b.bannerId)}"><img src="${safeUrl(b.image)}" alt="${esc(b.title)}"><span>${esc(b.title)}</span></a>`,
            )
            .join('')}</section>`
        : '',
      modules.length
        ? `<h2>快捷入口</h2><div class="modules">${modules.map((m) => `<a href="${safeUrl(m.link) || '#'}" style="background:${COLOR.test(String(m.color)) ? m.color : '#1677ff'}">${esc(m.name)}</a>`).join('')}</div>`
        : '',
      middles.length
        ? `<section class="middle" aria-label="中间栏" style="margin-top:24px">${middles
            .map(
              (m) =>
                `<a href="${safeUrl(m.link) || '#'}" style="background:${COLOR.test(String(m.color)) ? m.color : c.primary}"><b>${esc(m.title)}</b>${esc(m.subtitle)}</a>`,
            )
            .join('')}</section>`
        : '',
      ads
        .map((a) => `<a class="ad" href="${safeUrl(a.link) || '#'}" data-ad="${esc(a.adId)}"><img src="${safeUrl(a.image)}" alt="${esc(a.title)}"></a>`)
        .join(''),
      headlines.length
        ? `<h2>头条</h2><ul class="headlines">${headlines.map((h) => `<li>${safeUrl(h.link) ? `<a href="${safeUrl(h.link)}">${esc(h.title)}</a>` : esc(h.title)}</li>`).join('')}</ul>`
        : '',
      `<h2>最新资讯</h2><div class="grid">${news.map((n) => card(`/site/news/${n.newsId}`, n.cover, n.title, esc(n.publishTime ? formatTime(Number(n.publishTime), true) : ''))).join('') || '<p class="muted">暂无资讯</p>'}</div>`,
      services.length
        ? `<h2>优质服务</h2><div class="grid">${services.map((v) => card(safeUrl(v.link) || '#', v.image, v.title, esc(v.summary))).join('')}</div>`
        : '',
      specialties.length
        ? `<h2>我们的特色</h2><div class="grid">${specialties.map((v) => card('#', v.image, v.title, esc(v.description))).join('')}</div>`
        : '',
      hrefs.length
        ? `<h2>常用链接</h2><div class="hrefs">${hrefs.map((h) => `<a href="${safeUrl(h.url)}" rel="noopener noreferrer" target="_blank">${esc(h.name)}</a>`).join('')}</div>`
        : '',
    ].join('');
    return html(reply, layout(c, '首页', body, draft ? PREVIEW_NOTICE : ''), 200, Boolean(draft));
  });

  app.get('/site/news', async (_request, reply) => {
    const [c, news, ads] = await Promise.all([s().chrome(), s().list('content_news', {}, 50), s().list('site_ad', { position: '2' }, 1)]);
    const ad = ads
      .map((a) => `<a class="ad" href="${safeUrl(a.link) || '#'}" data-ad="${esc(a.adId)}"><img src="${safeUrl(a.image)}" alt="${esc(a.title)}"></a>`)
      .join('');
    const body = `${ad}<h2>资讯</h2><div class="grid">${news.map((n) => card(`/site/news/${n.newsId}`, n.cover, n.title, esc(n.summary))).join('') || '<p class="muted">暂无资讯</p>'}</div>`;
    return html(reply, layout(c, '资讯', body));
  });
  app.get<{ Params: { id: string } }>('/site/news/:id', async (request, reply) => {
    const { rec: n, preview, invalid } = await rowFor(request, 'content_news', idParam(request.params.id));
    if (invalid) return badPreview(reply);
    if (!n) return notFound(reply, '资讯');
    // Stored rich text was sanitised when it was written (engine: sanitize-html allow-list).
    const body = `<article><h1>${esc(n.title)}</h1><p class="muted">${n.publishTime ? formatTime(Number(n.publishTime)) : ''}</p>${String(n.content ?? '')}</article>`;
    return html(reply, layout(await s().chrome(), String(n.title), body, preview ? PREVIEW_NOTICE : ''), 200, preview);
  });

  app.get('/site/classroom', async (_request, reply) => {
    const [c, rooms] = await Promise.all([s().chrome(), s().list('content_classroom', {}, 50)]);
    const price = (fen: unknown) => (Number(fen) > 0 ? `¥${(Number(fen) / 100).toFixed(2)}` : '免费');
    const body = `<h2>名师课堂</h2><div class="grid">${rooms.map((r) => card(`/site/classroom/${r.classroomId}`, r.cover, r.title, `${esc(r.teacher)}　${price(r.price)}`)).join('') || '<p class="muted">暂无课堂</p>'}</div>`;
    return html(reply, layout(c, '课堂', body));
  });
  app.get<{ Params: { id: string } }>('/site/classroom/:id', async (request, reply) => {
    const { rec: room, preview, invalid } = await rowFor(request, 'content_classroom', idParam(request.params.id));
    if (invalid) return badPreview(reply);
    if (!room) return notFound(reply, '课堂');
    const videos = await s().list('content_classroom_video', { classroomId: room.classroomId }, 100);
    const player = videos
      .map(
        (v) =>
          `<section><h3>${esc(v.title)}</h3><video controls preload="metadata" data-video="${esc(v.videoId)}"${safeUrl(v.poster) ? ` poster="${safeUrl(v.poster)}"` : ''} src="${safeUrl(v.videoUrl)}"></video></section>`,
      )
      .join('');
    const body = `<article><h1>${esc(room.title)}</h1><p class="muted">主讲：${esc(room.teacher)}</p>${String(room.intro ?? '')}${player || '<p class="muted">视频即将上线</p>'}</article>`;
    return html(reply, layout(await s().chrome(), String(room.title), body, preview ? PREVIEW_NOTICE : ''), 200, preview);
  });

  const singlePage = (url: string, schema: string, fallback: string) =>
    app.get(url, async (_request, reply) => {
      const [c, page] = await Promise.all([s().chrome(), s().single(schema)]);
      const image = safeUrl(page.image) ? `<img src="${safeUrl(page.image)}" alt="">` : '';
      return html(
        reply,
        layout(c, String(page.title ?? fallback), `<article><h1>${esc(page.title ?? fallback)}</h1>${image}${String(page.content ?? '')}</article>`),
      );
    });
  singlePage('/site/about', 'site_about', '关于我们');
  singlePage('/site/privacy', 'site_privacy', '隐私政策');

  app.get<{ Params: { type: string } }>('/site/agreement/:type', async (request, reply) => {
    const [c, list] = await Promise.all([s().chrome(), s().list('site_agreement', { agreementType: request.params.type }, 1)]);
    const a = list[0];
    if (!a) return notFound(reply, '协议');
    return html(reply, layout(c, String(a.title), `<article><h1>${esc(a.title)}</h1>${String(a.content ?? '')}</article>`));
  });
  app.get('/site/links', async (_request, reply) => {
    const c = await s().chrome();
    const body = `<h2>友情链接</h2><ul class="headlines">${c.links.map((l) => `<li><a href="${safeUrl(l.url)}" rel="noopener noreferrer" target="_blank">${esc(l.name)}</a></li>`).join('')}</ul>`;
    return html(reply, layout(c, '友情链接', body));
  });
  app.get('/site/sites', async (_request, reply) => {
    const [c, sites] = await Promise.all([s().chrome(), s().list('site_service_site', {}, 200)]);
    const rows = sites.map(
      (x) =>
        `<tr><td>${esc(x.name)}</td><td>${esc(x.province)} ${esc(x.city)}</td><td>${esc(x.address)}</td><td>${esc(x.phone)}</td><td>${esc(x.businessHours)}</td></tr>`,
    );
    const body = `<h2>服务网点</h2><table><thead><tr><th>网点</th><th>地区</th><th>地址</th><th>电话</th><th>营业时间</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
    return html(reply, layout(c, '服务网点', body));
  });
  // 新建页面 (site_page): custom pages of the site, rich text sanitised on write.
  app.get<{ Params: { id: string } }>('/site/page/:id', async (request, reply) => {
    const { rec: p, preview, invalid } = await rowFor(request, 'site_page', idParam(request.params.id));
    if (invalid) return badPreview(reply);
    if (!p) return notFound(reply, '页面');
    const cover = safeUrl(p.cover) ? `<img src="${safeUrl(p.cover)}" alt="">` : '';
    const body = `<article><h1>${esc(p.title)}</h1><p class="muted">${p.publishTime ? formatTime(Number(p.publishTime)) : ''}</p>${cover}${String(p.content ?? '')}</article>`;
    return html(reply, layout(await s().chrome(), String(p.title), body, preview ? PREVIEW_NOTICE : ''), 200, preview);
  });
  app.get('/site/services', async (_request, reply) => {
    const [c, services] = await Promise.all([s().chrome(), s().list('content_service', {}, 50)]);
    const price = (fen: unknown, unit: unknown) => (Number(fen) > 0 ? `¥${(Number(fen) / 100).toFixed(2)}${unit ? ` / ${esc(unit)}` : ''}` : '免费');
    const body = `<h2>服务项目</h2><div class="grid">${services.map((v) => card(safeUrl(v.link) || '#', v.image, v.name, `${esc(v.summary)}<br><b style="color:${c.primary}">${price(v.price, v.unit)}</b>`)).join('') || '<p class="muted">暂无服务</p>'}</div>`;
    return html(reply, layout(c, '服务', body));
  });
  app.get('/site/library', async (_request, reply) => {
    const [c, docs] = await Promise.all([s().chrome(), s().list('site_library', {}, 200)]);
    const categories = ['', '政策文件', '招生计划', '填报指南', '历年数据'];
    const rows = docs.map(
      (d) =>
        `<tr><td>${esc(d.title)}</td><td>${esc(categories[Number(d.category)] ?? '')}</td><td>${esc(d.summary)}</td><td>${safeUrl(d.file) ? `<a href="${safeUrl(d.file)}" download data-library="${esc(d.libraryId)}">下载</a>` : ''}</td></tr>`,
    );
    const body = `<h2>资料库</h2><table><thead><tr><th>资料</th><th>分类</th><th>说明</th><th></th></tr></thead><tbody>${rows.join('') || '<tr><td colspan="4" class="muted">暂无资料</td></tr>'}</tbody></table>`;
    return html(reply, layout(c, '资料库', body));
  });
  app.get('/site/network', async (_request, reply) => {
    const [c, nets] = await Promise.all([s().chrome(), s().list('site_network', {}, 500)]);
    const kinds = ['', '直营中心', '加盟网点', '合作学校'];
    const provinces = [...new Set(nets.map((n) => String(n.province)))];
    const body = `<h2>全国网点</h2>${
      provinces
        .map(
          (p) =>
            `<h3>${esc(p)}</h3><table><thead><tr><th>网点</th><th>类型</th><th>城市</th><th>地址</th><th>联系人</th><th>电话</th></tr></thead><tbody>${nets
              .filter((n) => String(n.province) === p)
              .map(
                (n) =>
                  `<tr><td>${esc(n.name)}</td><td>${esc(kinds[Number(n.networkType)] ?? '')}</td><td>${esc(n.city)}</td><td>${esc(n.address)}</td><td>${esc(n.contact)}</td><td>${esc(n.phone)}</td></tr>`,
              )
              .join('')}</tbody></table>`,
        )
        .join('') || '<p class="muted">暂无网点</p>'
    }`;
    return html(reply, layout(c, '全国网点', body));
  });

  // 直播: the player and the status derived from the times (livePage.ts, common/content/liveStatus.ts). A preview
  // token for the row shows an unpublished channel; ?embed=1 answers the player alone (the console's 预览 dialog).
  registerPlayerAssets(app);
  app.get<{ Params: { channel: string }; Querystring: { embed?: string } }>('/site/live/:channel', async (request, reply) => {
    const channel = request.params.channel;
    const grant = previewOf(tokens, request);
    let live: Rec | undefined;
    if (grant === undefined) live = (await s().list('live_broadcast', { channelId: channel }, 1))[0];
    else {
      const draft = grant && grant.schema === 'live_broadcast' ? await s().draft('live_broadcast', grant.id) : undefined;
      if (!draft || draft.channelId !== channel) return badPreview(reply);
      live = draft;
    }
    if (!live) return notFound(reply, '直播');
    const player = livePlayer(live, Date.now());
    allowStream(reply, player);
    if (request.query.embed === '1') return html(reply, embedPage(String(live.title), player), 200, Boolean(grant));
    const c = await s().chrome();
    const start = live.startTime ? formatTime(Number(live.startTime)).slice(0, 16) : '时间待定';
    const body = `<style>.live-notice{margin:12px 0;padding:12px 16px;background:#fff7e6;border:1px solid #ffd591;border-radius:8px;color:#873800}.live-status{display:inline-block;padding:0 8px;border-radius:4px;color:#fff;background:${player.status === '直播中' ? '#f5222d' : player.status === '预告' ? c.primary : '#8c8c8c'}}</style><article><h1>${esc(live.title)}</h1><p class="muted">频道 ${esc(live.channelId)}　<span class="live-status" data-live-status>${esc(player.status)}</span>　开始时间 ${esc(start)}　主讲：${esc(live.anchor || '待定')}</p>${player.html}<p>${esc(live.intro)}</p></article>${player.scripts}`;
    return html(reply, layout(c, String(live.title), body, grant ? PREVIEW_NOTICE : ''), 200, Boolean(grant));
  });

  app.get<{ Params: { name: string } }>('/site/assets/:name', (request, reply) => {
    const name = request.params.name;
    if (!ASSET_NAME.test(name) || !fs.existsSync(path.join(ASSETS_DIR, name))) return reply.status(404).type('text/plain; charset=utf-8').send('Not Found');
    return reply
      .type(name.endsWith('.pdf') ? 'application/pdf' : 'image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .send(fs.readFileSync(path.join(ASSETS_DIR, name)));
  });
}

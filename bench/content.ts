import autocannon from 'autocannon';
import { assert, type HttpContext, type HttpResult, runHttpScenario } from './http.js';
import { summarize } from './stats.js';

/**
 * The public side of the content module (docs/content.md):
 *  - GET /site/ — the server-rendered home (banners, modules, 中间栏, 官网广告, headlines, news, services, specialties,
 *    常用链接, friend links, theme and site settings: 12 reads of published rows per page), no sign-in, no signature;
 *  - GET /appv2/api/public/banner/list — the app's banner list (x-public), signed per request like the app
 *    (`fresh`: one RSA private decrypt each), no sign-in.
 * Both on the seeded data plus whatever the other benches added; every answer is checked (HTML / code 200).
 */

export async function runSiteHome(ctx: Pick<HttpContext, 'base'>, { duration = 5, connections = 10, warmup = 1 } = {}): Promise<HttpResult> {
  const sample = await fetch(`${ctx.base}/site/`);
  const html = await sample.text();
  assert(sample.status === 200 && html.startsWith('<!doctype html>') && html.includes('aria-label="轮播图"'), '/site/ 未返回带轮播图的首页');
  const instance = autocannon({
    url: ctx.base,
    title: 'site-home',
    connections,
    duration,
    warmup: { connections, duration: warmup },
    requests: [{ method: 'GET', path: '/site/' }],
    verifyBody: (body) => body.startsWith('<!doctype html>'),
  });
  const times: number[] = [];
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    times.push(responseTime);
  });
  const result = await instance;
  const latency = summarize(times);
  return {
    name: 'site-home',
    title: 'GET /site/ (server-rendered home)',
    signing: 'fresh',
    durationS: result.duration,
    connections,
    requests: result.latency.totalCount,
    reqPerSec: result.requests.average,
    latencyP50Ms: latency.p50,
    latencyP99Ms: latency.p99,
    latencyMeanMs: latency.mean,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  };
}

export async function runContentBench(ctx: HttpContext, options: { duration?: number; connections?: number } = {}): Promise<HttpResult[]> {
  const site = await runSiteHome(ctx, options);
  const banners = await runHttpScenario(
    ctx,
    {
      name: 'appv2-banners',
      title: 'GET /appv2/api/public/banner/list',
      method: 'GET',
      path: '/appv2/api/public/banner/list',
      signedIn: false,
      signing: 'fresh',
      expect: 200,
      checkSample: (a) => assert(Array.isArray(a.rows) && a.rows.length >= 2, `公开轮播列表应至少有 2 条，实际 ${a.rows?.length}`),
    },
    options,
  );
  return [site, banners];
}

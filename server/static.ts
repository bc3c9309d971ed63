import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** index.html names the current build's assets: a cached copy would keep a browser on an old build. */
export const NEVER_CACHE = 'no-store';
/** Files under assets/ carry a content hash in their name, so a given URL never changes: cache for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Unhashed files beside index.html (favicon, publish-time.txt) may change with any build. */
const REVALIDATE = 'no-cache';

/** The Cache-Control header of a file of the build. */
export function cacheControlFor(root: string, filePath: string): string {
  const relative = path.relative(root, filePath).split(path.sep).join('/');
  if (relative.startsWith('assets/')) return IMMUTABLE;
  if (relative === 'index.html') return NEVER_CACHE;
  return REVALIDATE;
}

/**
 * Serves the built console (dist/) on the same port as the API, with SPA fallback: any GET that is not an API call
 * and not a file answers index.html, so refreshing a deep route (e.g. /system/user-auth/role/1) never 404s.
 */
export type ConsoleFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;

export async function registerStatic(app: FastifyInstance): Promise<ConsoleFallback | null> {
  const root = app.config.staticDir;
  const index = path.join(root, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn(`未找到前端构建产物 ${index}，仅提供接口服务（先运行 npm run build）`);
    return null;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // Serve the build's .br/.gz copies (scripts/precompress-plugin.ts) to browsers that accept them.
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => reply.header('cache-control', cacheControlFor(root, filePath)),
  });
  // Re-read index.html when a new build replaced it, so a rebuild while the server runs never serves stale asset names.
  let html = fs.readFileSync(index, 'utf8');
  let htmlMtime = fs.statSync(index).mtimeMs;
  const currentHtml = () => {
    try {
      const mtime = fs.statSync(index).mtimeMs;
      if (mtime !== htmlMtime) {
        html = fs.readFileSync(index, 'utf8');
        htmlMtime = mtime;
      }
    } catch {
      // Mid-rebuild: keep serving the last good page.
    }
    return html;
  };
  return (request, reply) => {
    const url = request.url.split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.status(404).send({ code: 404, msg: '资源不存在' });
    // A file of the folder that has no route of its own: one a build swapped in after the server started (the static
    // routes are listed once, at start), so a rebuild needs no restart for the new index.html's chunks.
    const file = path.join(root, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
    if (file.startsWith(root + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) return reply.sendFile(path.relative(root, file));
    // Files under assets/ that are missing are real 404s (a stale bundle: the console reloads once), the rest are routes.
    if (url.startsWith('/assets/')) return reply.status(404).send('Not Found');
    return reply.type('text/html; charset=utf-8').header('cache-control', NEVER_CACHE).send(currentHtml());
  };
}

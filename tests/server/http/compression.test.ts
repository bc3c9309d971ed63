import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { backends, startServer, type TestServer } from '../harness';

describe.each(backends)('compression and caching (%s)', (backend) => {
  let s: TestServer;
  let token: string;
  let site: FastifyInstance;
  let staticDir: string;
  const script = 'console.log("hashed asset");\n'.repeat(200);

  beforeAll(async () => {
    // A tiny stand-in for a console build: index.html, one hashed asset with its precompressed copies, a favicon.
    staticDir = await fs.mkdtemp(path.join(os.tmpdir(), 'zy-static-'));
    await fs.mkdir(path.join(staticDir, 'assets'));
    await fs.writeFile(path.join(staticDir, 'index.html'), '<!doctype html><div id="root"></div><script type="module" src="/assets/index-AbC123.js"></script>');
    await fs.writeFile(path.join(staticDir, 'assets/index-AbC123.js'), script);
    await fs.writeFile(path.join(staticDir, 'assets/index-AbC123.js.br'), zlib.brotliCompressSync(script));
    await fs.writeFile(path.join(staticDir, 'assets/index-AbC123.js.gz'), zlib.gzipSync(script));
    await fs.writeFile(path.join(staticDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    s = await startServer(backend, { staticDir });
    token = await s.login('admin', 'admin123');
    site = await buildApp({ config: s.config, serveConsole: true });
  });
  afterAll(async () => {
    await site?.close();
    await s?.close();
    await fs.rm(staticDir, { recursive: true, force: true });
  });

  it('sends a large API answer brotli-compressed to a browser that accepts it, with the same content', async () => {
    const plain = await s.call('POST', '/dev-api/api/auth/getRuleList', { token });
    expect(plain.body.code).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawBuffer.length).toBeGreaterThan(1024);

    const br = await s.call('POST', '/dev-api/api/auth/getRuleList', { token, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawBuffer.length).toBeLessThan(plain.rawBuffer.length / 3);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawBuffer).toString('utf8')).data).toEqual(plain.body.data);

    const gz = await s.call('POST', '/dev-api/api/auth/getRuleList', { token, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawBuffer).toString('utf8')).data).toEqual(plain.body.data);
  });

  it('leaves small answers uncompressed', async () => {
    const res = await s.call('POST', '/dev-api/api/auth/getRuleList', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.body.code).toBe(401);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('serves the build’s precompressed copy of a hashed asset, cached for a year as immutable', async () => {
    const br = await site.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(script);

    const gz = await site.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString('utf8')).toBe(script);

    const plain = await site.inject({ url: '/assets/index-AbC123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('serves the chunks of a build swapped in while it runs (no restart), and 404s a chunk that no build has', async () => {
    const next = 'console.log("next build");\n'.repeat(200);
    await fs.writeFile(path.join(staticDir, 'assets/index-NeW456.js'), next);
    await fs.writeFile(path.join(staticDir, 'assets/index-NeW456.js.br'), zlib.brotliCompressSync(next));
    const br = await site.inject({ url: '/assets/index-NeW456.js', headers: { 'accept-encoding': 'br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(next);
    expect((await site.inject({ url: '/assets/index-Gone789.js' })).statusCode).toBe(404);
    // A path that climbs out of the build is a console route (the page), never the file.
    expect((await site.inject({ url: '/assets/../../etc/passwd' })).body).not.toContain('root:');
  });

  it('never lets a browser cache index.html or /app-config.js; unhashed files are revalidated', async () => {
    for (const url of ['/', '/index', '/system/user', '/index.html']) {
      const page = await site.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['cache-control'], url).toBe('no-store');
    }
    const config = await site.inject({ url: '/app-config.js' });
    expect(config.headers['cache-control']).toBe('no-store');
    const icon = await site.inject({ url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');
  });
});

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers on every answer (docs/security.md). The CSP fits the console: its scripts are files of its own
 * origin (no inline script anywhere, /app-config.js included; run-time compiled validators need 'unsafe-eval'); antd writes its styles at run time, hence inline styles;
 * images and videos may come from the object store or a CDN (https:); menu links and the toolbox open in frames
 * (https:, or the configured toolbox origins on plain http). No page of ours may be framed by another site.
 *
 * The headers are the same for every answer, so helmet runs once at start and its result is set on each reply.
 * (@fastify/helmet built helmet's middleware anew on every request, parsing the CSP each time: about 3 % of a small
 * list request's CPU, docs/benchmarks.md.)
 */
export async function registerSecurityHeaders(app: FastifyInstance, toolboxOrigins: string[]): Promise<void> {
  const headers = securityHeaders(toolboxOrigins);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/** The header set helmet writes with our options, taken from one run of its middleware. */
export function securityHeaders(toolboxOrigins: string[]): Record<string, string> {
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // No inline script anywhere. 'unsafe-eval' because the schema forms' validator (ajv, under RJSF) compiles each
        // schema into a function at run time; without it every form of the schema engine fails to validate.
        scriptSrc: ["'self'", "'unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        mediaSrc: ["'self'", 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'https:', ...toolboxOrigins],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
    },
    // Plain-http installs on a LAN are common: no upgrade-insecure-requests; HSTS only matters once served over https.
    strictTransportSecurity: { maxAge: 15552000, includeSubDomains: false },
    // Uploaded images are shown by the app and the public site, which may live on other origins.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'sameorigin' },
  });
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

const INLINE_SAFE = /\.(png|jpe?g|gif|webp|svg|mp4|webm|m4v|mov|mp3)$/i;

/**
 * Uploaded files: served with nosniff (helmet) and, unless they are images or media a page shows inline, as
 * attachments, so an uploaded HTML or PDF file is downloaded, never rendered in our origin. SVGs get a CSP of their
 * own so a script inside one could not run even if one got past the upload check.
 */
export function uploadHeaders(filePath: string, setHeader: (name: string, value: string) => void): void {
  if (!INLINE_SAFE.test(filePath)) setHeader('Content-Disposition', 'attachment');
  if (/\.svg$/i.test(filePath)) setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  setHeader('X-Content-Type-Options', 'nosniff');
}

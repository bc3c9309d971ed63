import crypto from 'node:crypto';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import type { ServerConfig } from '../config.js';
import { ApiError } from '../http/envelope.js';
import { RATE_LIMIT_DEFAULTS, type RateLimitSettings } from './rateLimitSettings.js';

/**
 * Request rate limits of the public endpoints (docs/security.md, "Rate limits"), through @fastify/rate-limit.
 *
 * The per-account locks (server/security/loginAttempts.ts) stop guessing one account's password; these stop what they
 * cannot see: one address trying many accounts (password spraying), sending SMS codes to many numbers or one number
 * over and over, creating accounts in bulk, and hammering the public pages. Counted per client address (`request.ip`,
 * which honours TRUST_PROXY) and, for SMS, per mobile number. With REDIS_URL the counters live in Redis, so every
 * server process shares them; otherwise in this process's memory.
 *
 * Every limit is a count per fixed window, set by an environment variable (rateLimitSettings.ts); 0 turns that limit
 * off (benchmarks only).
 */

/** The limits in force: the defaults, overridden by those the environment sets. */
export function rateLimitSettings(config: ServerConfig): RateLimitSettings {
  return { ...RATE_LIMIT_DEFAULTS, ...config.rateLimits };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** "N 秒" for a short wait, "N 分钟" for a longer one: what the user has to wait, in words. */
export function waitText(ttlMs: number): string {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  return seconds < 120 ? `${seconds} 秒` : `${Math.ceil(seconds / 60)} 分钟`;
}

/** A refusal in the app's envelope (code 429, HTTP 200 like every business answer) with a Chinese message. */
const tooMany = (what: string, ttlMs: number) => new ApiError(429, `${what}过于频繁，请 ${waitText(ttlMs)}后再试`);

/**
 * config.rateLimit of a route: `max` requests per `windowMs` from one address, refused with `${what}过于频繁…`.
 * false when the limit is off (0), so the plugin adds no hook.
 */
export function routeRateLimit(app: FastifyInstance, what: string, max: number, windowMs: number): RateLimitOptions | false {
  if (!max || !app.hasDecorator('createRateLimit')) return false;
  return { max, timeWindow: windowMs, errorResponseBuilder: (_request, context) => tooMany(what, context.ttl) };
}

/**
 * A further limit on the same route (the plugin runs one config.rateLimit per request), as a hook: `key` names the
 * counted thing (an address, a mobile number) and must carry its own prefix, since in Redis every such limiter
 * shares one namespace. A hook on preHandler may key on the parsed body.
 */
export function extraRateLimit(
  app: FastifyInstance,
  what: string,
  max: number,
  windowMs: number,
  key: (request: FastifyRequest) => string,
): ((request: FastifyRequest) => Promise<void>) | undefined {
  if (!max || !app.hasDecorator('createRateLimit')) return undefined;
  const limiter = app.createRateLimit({ max, timeWindow: windowMs, keyGenerator: key });
  return async (request) => {
    const result = await limiter(request);
    if (!result.isAllowed && result.isExceeded) throw tooMany(what, result.ttl);
  };
}

export const RATE_WINDOWS = { MINUTE, HOUR };

/**
 * Registers the plugin (global: false — only routes that set config.rateLimit are limited) before the routes, and
 * the per-address limit of the public pages, which declare no permission and are matched here by their route.
 */
export async function registerRateLimits(app: FastifyInstance, config: ServerConfig): Promise<void> {
  let redis: Redis | undefined;
  if (config.redisUrl) {
    // A connection of its own: the plugin defines a Lua command on it. Fail fast when Redis is away.
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000, enableOfflineQueue: true });
    redis.on('error', () => {}); // reported through failed commands, which skipOnError lets through
    app.addHook('onClose', async () => {
      redis?.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: `${counterPrefix(config)}rl:` } : {}),
    // Redis away: the requests go on (the database-backed per-account locks still hold) rather than nobody signing in.
    skipOnError: true,
  });

  const settings = rateLimitSettings(config);
  const pages = extraRateLimit(app, '访问', settings.pagesPerMinute, MINUTE, (request) => `pages:${request.ip}`);
  if (!pages) return;
  app.addHook('onRequest', async (request, reply) => {
    const url = request.routeOptions?.url ?? '';
    if (!(url === '/site' || url.startsWith('/site/') || url.startsWith('/share/'))) return;
    try {
      await pages(request);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // These are pages, not API answers: a short page saying what to do, with the status a browser understands.
      return reply.code(429).type('text/html; charset=utf-8').send(`<!doctype html><meta charset="utf-8"><title>访问过于频繁</title><p>${error.message}</p>`);
    }
  });
}

/** The namespace of this install's counters in a shared Redis: the same derivation as the cache's (server/monitor/plugin.ts). */
function counterPrefix(config: ServerConfig): string {
  if (config.cachePrefix) return config.cachePrefix.endsWith(':') ? config.cachePrefix : `${config.cachePrefix}:`;
  const where = config.databaseUrl ? `${config.databaseUrl.replace(/\/\/[^@]*@/, '//')}#${config.databaseSchema ?? 'public'}` : config.dataDir;
  return `zy:${crypto.createHash('sha1').update(where).digest('hex').slice(0, 10)}:`;
}

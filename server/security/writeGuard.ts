import type { FastifyRequest } from 'fastify';
import { digest } from './nonces.js';

/** Spec §5 / §9: a repeat of the same write within 1000 ms is refused with the console's own message. */
export const REPEAT_WINDOW_MS = 1000;
export const REPEAT_MESSAGE = '数据正在处理，请勿重复提交';

/**
 * Whether the matched route writes, as it declares (config.write, required on every API route: server/app.ts refuses
 * to start otherwise). Never guessed from the path or the permission: a guess once took 账户续费 (channelRenewal) for a
 * read, so its signature could be replayed and a double click charged twice (issue 22). Anything that is not a
 * declared read — a route without a declaration, no route at all — counts as a write, the safe side.
 */
export function isWriteRoute(request: FastifyRequest): boolean {
  return request.routeOptions?.config?.write !== false;
}

/** Same user, same route (with its parameters and query) and same body: the key of one submission. */
export function submissionKey(request: FastifyRequest, userId: number): string | null {
  if (request.isMultipart()) return null; // uploads have their own limits; their bodies are streams
  let body: string;
  try {
    body = request.body === undefined ? '' : JSON.stringify(request.body);
  } catch {
    // A body JSON cannot spell again (too deep for the stack; the JSON parser caps depth, so only another parser's
    // object could be): no duplicate-submit key rather than an internal error. Its route still checks the body.
    return null;
  }
  return `dup:${userId}:${request.method}:${digest(`${request.url}\n${body}`)}`;
}

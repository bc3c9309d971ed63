import type { FastifyRequest } from 'fastify';
import { digest } from './nonces.js';

/** Spec §5 / §9: a repeat of the same write within 1000 ms is refused with the console's own message. */
export const REPEAT_WINDOW_MS = 1000;
export const REPEAT_MESSAGE = '数据正在处理，请勿重复提交';

// Most reads here are POSTs (list, info, query …), so a POST is a write only when its last path segment or its
// permission says so. A route can always say it itself with config.write.
const WRITE_SEGMENT =
  /^(save|submit|unsubmit|add|create|insert|edit|update|upd|change|del|delete|remove|reset|import|upload|commit|apply|audit|approve|reject|assign|bind|open|activate|release|withdraw|cash|recharge|pull|pay|register|cancel|void|transfer|restore|purge|deliver|send(?!code))/i;
const WRITE_PERMISSION = /:(add|edit|remove|import|resetPwd|save|submit|release|activate|void|handle|approve|audit|run|changeStatus)$/;

export function isWriteRoute(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  if (typeof config.write === 'boolean') return config.write;
  const method = request.method;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  if (method !== 'POST') return true; // PUT, DELETE, PATCH
  const pattern = request.routeOptions.url ?? '';
  const last =
    pattern
      .split('/')
      .filter((s) => s && !s.startsWith(':'))
      .pop() ?? '';
  if (/logout/i.test(last)) return false;
  return WRITE_SEGMENT.test(last) || WRITE_PERMISSION.test(config.permission ?? '');
}

/** Same user, same route (with its parameters and query) and same body: the key of one submission. */
export function submissionKey(request: FastifyRequest, userId: number): string | null {
  if (request.isMultipart()) return null; // uploads have their own limits; their bodies are streams
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  return `dup:${userId}:${request.method}:${digest(`${request.url}\n${body}`)}`;
}

import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from '../config.js';
import type { Db } from '../db/connection.js';
import { validationMessage } from '../http/validation.js';

/**
 * The registry of job handlers (定时任务 → 处理器). A job names one of these by its `name`; there is no free-form invoke
 * target (RuoYi's `invokeTarget` string could call any bean method). Each handler declares a JSON schema for its
 * parameters (titles in Chinese: a bad parameter is refused naming the field) and a `run` that answers a short message
 * for the job log. Other modules register theirs with `registerJobHandler` from their `jobs.ts` (docs/monitor.md).
 */
export interface JobContext {
  db: Db;
  log: FastifyBaseLogger;
  /** When this run started (epoch ms). */
  now: number;
  /** Aborted when the server shuts down; a long handler should stop early. */
  signal: AbortSignal;
  /** The configuration of the process running the job (DATA_DIR, database, storage: the 系统备份 job needs them). */
  config?: ServerConfig;
}

export interface JobHandler<P = Record<string, unknown>> {
  /** Registry key stored in sys_job.handler_name: letters and digits, e.g. `purgeExpiredSessions`. */
  name: string;
  /** Chinese name shown in the 处理器 select. */
  title: string;
  /** What it does (shown under the select). */
  description?: string;
  /** JSON schema (object) of its parameters; `{}` when it takes none. */
  paramsSchema?: Record<string, unknown>;
  /** Does the work; the answered text goes to the log's 日志信息. Throw to fail the run. */
  run(ctx: JobContext, params: P): Promise<string | undefined> | string | undefined;
}

interface Registered {
  handler: JobHandler;
  validate: ValidateFunction;
}

const ajv = new Ajv2020({ allErrors: false, coerceTypes: false, useDefaults: true, strict: false, verbose: true });
const registry = new Map<string, Registered>();

/** Adds a handler (once per name; registering a name twice is a programming error). */
export function registerJobHandler<P extends Record<string, unknown>>(handler: JobHandler<P>): void {
  if (!/^[A-Za-z][A-Za-z0-9_.]{1,63}$/.test(handler.name)) throw new Error(`任务处理器名称不合法：${handler.name}`);
  if (registry.has(handler.name)) throw new Error(`任务处理器重复注册：${handler.name}`);
  const schema = { type: 'object', additionalProperties: false, properties: {}, ...(handler.paramsSchema ?? {}) };
  registry.set(handler.name, { handler: handler as unknown as JobHandler, validate: ajv.compile(schema) });
}

/** Removes a handler (tests register throw-away handlers). */
export function unregisterJobHandler(name: string): void {
  registry.delete(name);
}

export function getJobHandler(name: string): JobHandler | undefined {
  return registry.get(name)?.handler;
}

/** Every handler for the form: name, title, description and parameter schema. */
export function listJobHandlers() {
  return [...registry.values()]
    .map(({ handler }) => ({
      name: handler.name,
      title: handler.title,
      description: handler.description ?? '',
      paramsSchema: { type: 'object', properties: {}, ...(handler.paramsSchema ?? {}) },
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Parses and checks a job's parameters (JSON object text) against its handler's schema.
 * Answers the parsed parameters, or a Chinese problem.
 */
export function checkJobParams(
  handlerName: string,
  paramsText: string | null | undefined,
): { ok: true; params: Record<string, unknown> } | { ok: false; msg: string } {
  const found = registry.get(handlerName);
  if (!found) return { ok: false, msg: `处理器'${handlerName}'不存在，请从列表中选择` };
  let params: unknown = {};
  const text = (paramsText ?? '').trim();
  if (text) {
    try {
      params = JSON.parse(text);
    } catch {
      return { ok: false, msg: '任务参数必须是 JSON 对象，例如 {"days": 30}' };
    }
  }
  if (!params || typeof params !== 'object' || Array.isArray(params)) return { ok: false, msg: '任务参数必须是 JSON 对象，例如 {"days": 30}' };
  if (!found.validate(params)) {
    const err = found.validate.errors?.[0];
    if (err?.keyword === 'additionalProperties') {
      return { ok: false, msg: `任务参数不支持"${(err.params as { additionalProperty: string }).additionalProperty}"` };
    }
    return { ok: false, msg: `任务参数有误：${validationMessage((found.validate.errors ?? []) as never)}` };
  }
  return { ok: true, params: params as Record<string, unknown> };
}

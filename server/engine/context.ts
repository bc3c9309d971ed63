import type { FastifyRequest } from 'fastify';
import type { Dialect } from '../db/connection.js';
import { ApiError, Code } from '../http/envelope.js';
import type { Entity } from './model.js';
import { type BusinessTypeCode, recordOperation } from './operlog.js';
import { DictLookup, type WriteContext } from './records.js';
import type { Q } from './store.js';

/** What every engine route needs: the database (without name mapping), its dialect and the loaded entities. */
export interface EngineEnv {
  k: Q;
  dialect: Dialect;
  entities: Map<string, Entity>;
  dictsAvailable: boolean;
}

export function writeContext(env: EngineEnv, request: FastifyRequest, k: Q = env.k): WriteContext {
  return {
    k,
    entities: env.entities,
    userName: request.auth?.userName ?? '',
    auth: request.auth ?? undefined,
    now: Date.now(),
    dicts: new DictLookup(env.dictsAvailable),
    dialect: env.dialect,
  };
}

/** A database unique-constraint error (two writers passed the x-unique check at the same moment). */
function uniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Runs a write and records it in the operation log, successful or not. */
export async function logged<T>(
  env: EngineEnv,
  request: FastifyRequest,
  entry: { title: string; businessType: BusinessTypeCode; method: string; param: unknown; secretKeys?: string[] },
  run: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  try {
    const result = await run();
    await recordOperation(env.k, request, { ...entry, result, status: 0, costTime: Date.now() - started });
    return result;
  } catch (caught) {
    const err = uniqueViolation(caught) ? new ApiError(Code.ERROR, '保存失败：数据已存在（唯一约束冲突），请刷新后重试') : caught;
    const e = err as Error & { extra?: Record<string, unknown> };
    const result = err instanceof ApiError ? { code: err.code, msg: err.message, ...err.extra } : undefined;
    await recordOperation(env.k, request, { ...entry, result, status: 1, errorMsg: e.message, costTime: Date.now() - started });
    throw err;
  }
}

import type { Envelope } from '@common/http/envelope';
import type { App } from 'antd';
import axios, { type AxiosError, type AxiosRequestConfig, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { getToken } from '@/utils/auth';
import { decryptPayload, forgetReadSignature, noteServerDate, readSignature, signTimestamp } from './crypto';
import { messageFor } from './errorCode';
import { tansParams } from './params';
import { inflightReads, isReadRequest, repeatGuard, serializeBody } from './repeatGuard';

/**
 * The console's http client (spec §8, §9). Every call is signed (Authentication + Timer), carries the bearer token,
 * and a write is refused locally when it repeats the previous write within 1000 ms; identical reads in flight share
 * one request (repeatGuard.ts says what a read is). Answers are handled by code:
 *   200 / 20000      resolve with the envelope (20000 string data decrypted first)
 *   20001, 90001, 400333, 40033   resolve with the full envelope, no message
 *   401 / 40310      confirm dialog 系统提示 (重新登录 / 取消); re-login signs out; reject 无效的会话，或者会话已过期，请重新登录。
 *   500, 601         error toast; reject
 *   44444            error toast; resolve
 *   40000, 50000     error toast; reject
 *   other            error notification; reject
 * Callers pick `data`, `rows`, `msg` from the resolved envelope (see api/*.ts).
 */
export const TIMEOUT_MS = 20000;
export const SESSION_EXPIRED_MESSAGE = '无效的会话，或者会话已过期，请重新登录。';
const PASS_THROUGH = new Set([20001, 90001, 400333, 40033]);
const TOAST_AND_REJECT = new Set([500, 601, 40000, 50000]);

/** Per-request switches, as RuoYi's headers: isToken false = no bearer; repeatSubmit false = no repeat guard. */
export interface RequestOptions {
  isToken?: boolean;
  repeatSubmit?: boolean;
  /** Ask the server for an encrypted answer (authEncode=1). */
  encrypt?: boolean;
  /** Do not show any message for a failed answer (the caller shows its own). */
  silent?: boolean;
  /**
   * Whether the call only reads. Unset, it is decided by method and call name (repeatGuard.ts isReadRequest).
   * Reads are never refused as repeats, and identical reads in flight share one request.
   */
  read?: boolean;
}

declare module 'axios' {
  interface AxiosRequestConfig {
    options?: RequestOptions;
    /** Set by the client: this call carried the shared read signature (crypto.ts readSignature), not its own. */
    sharedSignature?: boolean;
    /** Set by the client on a resend: sign this call with a signature of its own. */
    freshSignature?: boolean;
  }
}

/** Set on an answer the server repeated from an identical money request it had already done (no second effect). */
const REPLAYED_HEADER = 'idempotent-replayed';
export const REPLAYED_MESSAGE = '相同的请求刚刚已经处理过，本次没有重复执行，显示的是上一次的结果';

/** The answer code of a refused repeated signature (server/security/protocol.ts AUTH_CODES.replayed). */
const SIGNATURE_REPLAYED = 40004;

/** Thrown for every rejected call; `code` is the answer's code (or 0 for transport errors). */
export class RequestError extends Error {
  constructor(
    message: string,
    public readonly code: number,
    public readonly envelope?: Envelope,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

// Toasts, notifications and the confirm dialog come from antd's App context once the console is mounted; before
// that (and in tests) the static methods are used.
type Feedback = Pick<ReturnType<typeof App.useApp>, 'message' | 'notification' | 'modal'>;
let feedback: Feedback | null = null;
export function setFeedback(f: Feedback | null): void {
  feedback = f;
}
async function ui(): Promise<Feedback> {
  if (feedback) return feedback;
  const { message, notification, Modal } = await import('antd');
  return { message, notification, modal: Modal } as unknown as Feedback;
}

let onSessionExpired: () => void = () => {};
/** What 重新登录 does: the app clears the session and goes to /index. */
export function setSessionExpiredHandler(handler: () => void): void {
  onSessionExpired = handler;
}

// Only one expiry dialog at a time, however many calls fail together.
let expiryDialogOpen = false;
async function confirmSessionExpired(): Promise<void> {
  if (expiryDialogOpen) return;
  expiryDialogOpen = true;
  (await ui()).modal.confirm({
    title: '系统提示',
    content: '登录状态已过期，您可以继续留在该页面，或者重新登录',
    okText: '重新登录',
    cancelText: '取消',
    onOk: () => {
      expiryDialogOpen = false;
      onSessionExpired();
    },
    onCancel: () => {
      expiryDialogOpen = false;
    },
  });
}

export const http = axios.create({ baseURL: '', timeout: TIMEOUT_MS, headers: { 'Content-Type': 'application/json;charset=utf-8' } });

http.interceptors.request.use((config: InternalAxiosRequestConfig) => {
  const options = config.options ?? {};
  const token = getToken();
  if (token && options.isToken !== false) config.headers.set('Authorization', `Bearer ${token}`);
  // Reads share one signature for a few seconds (no RSA work per call, here or on the server); writes sign anew.
  config.sharedSignature = !config.freshSignature && isReadRequest(config.method, config.url, options.read);
  const signed = config.sharedSignature ? readSignature() : signTimestamp();
  config.headers.set('Authentication', signed.Authentication);
  config.headers.set('Timer', signed.Timer);
  if (options.encrypt) {
    const method = (config.method ?? 'get').toLowerCase();
    if (method === 'get' || method === 'delete') config.params = { ...(config.params ?? {}), authEncode: 1 };
    else if (config.data && typeof config.data === 'object' && !(config.data instanceof FormData)) config.data = { ...config.data, authEncode: 1 };
    else config.params = { ...(config.params ?? {}), authEncode: 1 };
  }
  // GET params in RuoYi's bracket form (params[beginTime]) rather than axios' default.
  if ((config.method ?? 'get').toLowerCase() === 'get' && config.params) {
    const qs = tansParams(config.params as Record<string, unknown>);
    config.url = qs ? `${config.url}${config.url?.includes('?') ? '&' : '?'}${qs}` : config.url;
    config.params = {};
  }
  if (options.repeatSubmit !== false) {
    const refusal = repeatGuard.check(config.method, config.url, config.data, options.read);
    if (refusal) return Promise.reject(new RequestError(refusal, 0));
  }
  return config;
});

/** Applies the §8 table to one answer. Exported for the download helper, which sees JSON errors inside blobs. */
export async function handleEnvelope(env: Envelope, options: RequestOptions = {}): Promise<Envelope> {
  const code = Number(env.code ?? 200);
  const msg = messageFor(code, env.msg);
  if (code === 200) return env;
  if (code === 20000) {
    if (typeof env.data !== 'string') return env;
    const plain = await decryptPayload(env.data);
    // Lists encrypt {rows,total}; single answers encrypt the data value.
    if (plain && typeof plain === 'object' && 'rows' in (plain as object)) return { ...env, code: 200, ...(plain as object), data: undefined };
    return { ...env, code: 200, data: plain };
  }
  if (PASS_THROUGH.has(code)) return env;
  if (code === 401 || code === 40310) {
    if (!options.silent) await confirmSessionExpired();
    throw new RequestError(SESSION_EXPIRED_MESSAGE, code, env);
  }
  const f = options.silent ? null : await ui();
  if (code === 44444) {
    f?.message.error(msg);
    return env;
  }
  if (TOAST_AND_REJECT.has(code)) {
    f?.message.error(msg);
    throw new RequestError(msg, code, env);
  }
  f?.notification.error({ message: msg });
  throw new RequestError(msg, code, env);
}

http.interceptors.response.use(
  async (response: AxiosResponse) => {
    noteServerDate(response.headers?.date);
    // Blobs (downloads) are handled by download.ts.
    if (response.request?.responseType === 'blob' || response.config.responseType === 'blob' || response.config.responseType === 'arraybuffer') return response;
    // A call the console took for a read but the server treats as a write refuses a shared signature: send it once
    // more with a signature of its own.
    if (response.config.sharedSignature && Number((response.data as Envelope | undefined)?.code) === SIGNATURE_REPLAYED) {
      forgetReadSignature();
      return http.request({ ...response.config, freshSignature: true });
    }
    const data = await handleEnvelope(response.data as Envelope, response.config.options);
    // A money request the server had already done (a double click, a retry within its window) is answered with the
    // first result and done no second time (server/security/idempotency.ts): say so, or the user may think it ran twice.
    if (String(response.headers?.[REPLAYED_HEADER] ?? '') === 'true') (await ui()).message.warning(REPLAYED_MESSAGE);
    return { ...response, data };
  },
  async (error: AxiosError | RequestError) => {
    if (error instanceof RequestError) {
      if (error.code === 0 && !error.envelope) (await ui()).message.warning(error.message);
      throw error;
    }
    const text = transportMessage(error);
    if (!error.config?.options?.silent) (await ui()).message.error({ content: text, duration: 5 });
    throw new RequestError(text, error.response?.status ?? 0);
  },
);

/** §8 transport errors: network, timeout, or a status code. */
export function transportMessage(error: AxiosError): string {
  const raw = error.message ?? '';
  if (raw === 'Network Error') return '后端接口连接异常';
  if (raw.includes('timeout')) return '系统接口请求超时';
  if (raw.includes('Request failed with status code')) return `系统接口${raw.slice(-3)}异常`;
  return raw || '后端接口连接异常';
}

/** A signed call resolving with the handled envelope. */
export async function request<T = unknown>(config: AxiosRequestConfig & { options?: RequestOptions }): Promise<Envelope<T>> {
  const key = sharedReadKey(config);
  if (key === null) {
    if (!isReadRequest(config.method, config.url, config.options?.read)) inflightReads.forgetAhead();
    return (await http.request<Envelope<T>>(config)).data;
  }
  // Each caller gets its own envelope object: one caller reshaping its answer must not change the other's.
  const env = await inflightReads.share(key, async () => (await http.request<Envelope<T>>(config)).data);
  return { ...env };
}

/** How long an answer read ahead waits for the call it was read for. */
export const READ_AHEAD_KEEP_MS = 3000;

/**
 * Starts a read before the call that will make it (a list page's first rows while the page renders, instead of after
 * it has been drawn): the identical call then takes this answer (InflightReads.ahead). Silent — if it fails, that call
 * asks the server itself and reports as usual. Nothing happens for a call that is not a shareable read.
 */
export function readAhead(config: AxiosRequestConfig & { options?: RequestOptions }): void {
  const key = sharedReadKey(config);
  if (key === null) return;
  inflightReads.ahead(key, async () => (await http.request<Envelope>({ ...config, options: { ...config.options, silent: true } })).data, READ_AHEAD_KEEP_MS);
}

/**
 * The identity of a read that may share an in-flight twin: method, url, params, body and the signed-in token (a
 * read of another session never answers this one). Null for writes, downloads and bodies without a text form.
 */
function sharedReadKey(config: AxiosRequestConfig & { options?: RequestOptions }): string | null {
  if (config.responseType || config.signal || config.cancelToken) return null;
  if (!isReadRequest(config.method, config.url, config.options?.read)) return null;
  const body = serializeBody(config.data);
  if (body === null) return null;
  const params = config.params === undefined ? '' : JSON.stringify(config.params);
  const flags = JSON.stringify(config.options ?? {});
  return [(config.method ?? 'get').toLowerCase(), config.url ?? '', params, body, flags, getToken() ?? ''].join('\u0000');
}

/** Shorthands that resolve with `data`. */
export async function post<T>(url: string, data?: unknown, options?: RequestOptions): Promise<T> {
  return (await request<T>({ url, method: 'post', data: data ?? {}, options })).data as T;
}
export async function get<T>(url: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<T> {
  return (await request<T>({ url, method: 'get', params, options })).data as T;
}

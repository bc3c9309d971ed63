import crypto from 'node:crypto';
import zlib from 'node:zlib';
import forge from 'node-forge';
import type { KeyMaterial } from '../server/security/keys.js';
import { decryptWithPem, Protocol, signTimer } from '../server/security/protocol.js';
import { rsaDecryptPkcs1 } from '../server/security/rsa.js';
import { timerSigner } from './sign.js';
import { summarize } from './stats.js';

/**
 * Micro-benchmarks of the encrypted API protocol (docs/protocol.md), in-process, one operation at a time:
 *  - verifying the Authentication header: the server's path (raw RSA_NO_PADDING + manual PKCS#1 v1.5 unpad, and the
 *    whole Protocol.verify on a cache miss) against node-forge's pure-JS RSAES-PKCS1-V1_5 decrypt, and the
 *    verified-header cache hit;
 *  - wrapping a 20-row list answer (Protocol.encrypt) and unwrapping it again (native and pure-JS RSA).
 * Signatures are made like the console makes them (jsencrypt = RSA PKCS#1 v1.5 of the Timer text): signTimer.
 * Client-side signing is done up front and not timed. Figures are microseconds per operation.
 */

export interface MicroResult {
  name: string;
  ops: number;
  /** NaN (null in the JSON) when the operation could not run. */
  meanUs: number;
  p50Us: number;
  p99Us: number;
  note?: string;
  /** Why the operation could not run (then ops is 0). */
  error?: string;
}

const now = () => process.hrtime.bigint();

/** Runs fn(i) for warmup + ops distinct indexes, timing each of the last `ops` calls. */
function measure(name: string, ops: number, warmup: number, fn: (i: number) => void, note?: string): MicroResult {
  for (let i = 0; i < warmup; i++) fn(i);
  const samples = new Float64Array(ops);
  for (let i = 0; i < ops; i++) {
    const t0 = now();
    fn(warmup + i);
    samples[i] = Number(now() - t0) / 1000;
  }
  const s = summarize(samples);
  return { name, ops, meanUs: s.mean, p50Us: s.p50, p99Us: s.p99, ...(note ? { note } : {}) };
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`基准自检失败：${what}`);
}

/** A page of the online-users list, as the server answers it (20 rows). */
function onlineRows(n: number) {
  const rows = Array.from({ length: n }, (_, i) => ({
    tokenId: crypto.randomBytes(32).toString('hex'),
    userName: `user${i}`,
    deptName: '咨询服务部',
    ipaddr: '127.0.0.1',
    loginLocation: '内网IP',
    browser: 'Chrome 126',
    os: 'Windows',
    loginTime: Date.now() - i * 60_000,
  }));
  return { rows, total: n };
}

export interface MicroOptions {
  /** Operations for the native paths (default 2000). */
  ops?: number;
  /** Operations for the pure-JS node-forge paths, ~20 ms each (default 100). */
  forgeOps?: number;
}

export function runProtocolMicro(keys: KeyMaterial, { ops = 2000, forgeOps = 100 }: MicroOptions = {}): MicroResult[] {
  const windowMs = 5 * 60 * 1000;
  const warmup = Math.max(50, Math.round(ops / 10));
  const forgeWarmup = Math.max(5, Math.round(forgeOps / 10));
  const results: MicroResult[] = [];

  // Distinct headers, as the console sends them (PKCS#1 v1.5 padding is random, so every one is a new ciphertext).
  const headers: ReturnType<typeof signTimer>[] = [];
  // The client half: signing one request (RSA public encrypt of the Timer text), timed while making the headers.
  results.push(
    measure(
      'client: signTimer (RSA public encrypt)',
      ops,
      warmup,
      () => {
        headers.push(signTimer(keys.requestPublicPem));
      },
      'parses the public PEM each call',
    ),
  );
  const sign = timerSigner(keys.requestPublicPem);
  results.push(measure('client: sign, key parsed once', ops, warmup, () => void sign(), 'what the HTTP bench uses'));

  // 0. The timing itself (two hrtime reads around an empty call), to read the sub-microsecond rows against.
  results.push(measure('baseline: empty op (timer overhead)', ops * 10, ops, () => {}));

  // 1. Raw RSA: RSA_NO_PADDING private decrypt + manual PKCS#1 v1.5 unpad (server/security/rsa.ts).
  results.push(
    measure('verify: raw RSA (NO_PADDING + unpad)', ops, warmup, (i) => {
      const h = headers[i];
      check(rsaDecryptPkcs1(keys.requestPrivate, h.Authentication) === h.Timer, 'raw RSA 解出的不是 Timer');
    }),
  );

  // 2. Protocol.verify on a cache miss: format + window checks, raw RSA, cache insert.
  const cold = new Protocol(keys, windowMs);
  results.push(
    measure('verify: Protocol.verify, fresh header', ops, warmup, (i) => {
      const h = headers[i];
      check(cold.verify(h.Authentication, h.Timer).ok, 'Protocol.verify 拒绝了合法签名');
    }),
  );

  // 3. Protocol.verify on a cache hit: the same header again within the window.
  const warm = new Protocol(keys, windowMs);
  const repeated = headers[0];
  check(warm.verify(repeated.Authentication, repeated.Timer).ok, '缓存预热失败');
  const hitOps = ops * 10;
  results.push(
    measure(
      'verify: Protocol.verify, cached header',
      hitOps,
      hitOps / 10,
      () => {
        check(warm.verify(repeated.Authentication, repeated.Timer).ok, '缓存命中却被拒绝');
      },
      'includes the timer overhead (baseline row)',
    ),
  );

  // 4. node-forge: pure-JS RSAES-PKCS1-V1_5 decrypt (the path the server must not use; ~ jsencrypt speed).
  const forgeRequestKey = forge.pki.privateKeyFromPem(keys.requestPrivate.export({ type: 'pkcs1', format: 'pem' }).toString());
  results.push(
    measure('verify: node-forge decrypt (RSAES-PKCS1-V1_5)', forgeOps, forgeWarmup, (i) => {
      const h = headers[i];
      check(forgeRequestKey.decrypt(forge.util.decode64(h.Authentication), 'RSAES-PKCS1-V1_5') === h.Timer, 'node-forge 解出的不是 Timer');
    }),
  );

  // Node's own PKCS#1 v1.5 private decrypt: refused on Node 20 unless --security-revert=CVE-2023-46809.
  try {
    crypto.privateDecrypt({ key: keys.requestPrivate, padding: crypto.constants.RSA_PKCS1_PADDING }, Buffer.from(headers[0].Authentication, 'base64'));
    results.push(
      measure('verify: crypto.privateDecrypt PKCS1 (native)', ops, warmup, (i) => {
        crypto.privateDecrypt({ key: keys.requestPrivate, padding: crypto.constants.RSA_PKCS1_PADDING }, Buffer.from(headers[i].Authentication, 'base64'));
      }),
    );
  } catch (err) {
    results.push({
      name: 'verify: crypto.privateDecrypt PKCS1 (native)',
      ops: 0,
      meanUs: Number.NaN,
      p50Us: Number.NaN,
      p99Us: Number.NaN,
      note: 'refused by Node (CVE-2023-46809 hardening)',
      error: (err as Error).message,
    });
  }

  // 5. Response encryption of a 20-row list answer ({rows, total}), as the preSerialization hook does.
  const protocol = new Protocol(keys, windowMs);
  const list = onlineRows(20);
  const plainBytes = Buffer.byteLength(JSON.stringify(list));
  const payloads: string[] = [];
  results.push(
    measure(
      'response: Protocol.encrypt (20 rows)',
      ops,
      warmup,
      (i) => {
        const p = protocol.encrypt(list);
        if (i < 64) payloads.push(p);
      },
      `${plainBytes} B JSON -> ${protocol.encrypt(list).length} B payload`,
    ),
  );

  // 6. Response decryption, native RSA (the Node client helper; parses the private PEM on each call).
  results.push(
    measure('response: decryptWithPem (native RSA)', ops, warmup, (i) => {
      const data = decryptWithPem(keys.responsePrivatePem, payloads[i % payloads.length]) as { rows: unknown[] };
      check(data.rows.length === 20, '解密后的行数不对');
    }),
  );

  // 7. Response decryption with a pure-JS RSA unwrap (node-forge), standing in for jsencrypt in the browser.
  const forgeResponseKey = forge.pki.privateKeyFromPem(keys.responsePrivatePem);
  results.push(
    measure(
      'response: decrypt, node-forge RSA unwrap',
      forgeOps,
      forgeWarmup,
      (i) => {
        const [wrapped, body] = payloads[i % payloads.length].split('.');
        const keyIv = forgeResponseKey.decrypt(forge.util.decode64(wrapped), 'RSAES-PKCS1-V1_5');
        const decipher = crypto.createDecipheriv('aes-128-cbc', Buffer.from(keyIv.slice(0, 16), 'latin1'), Buffer.from(keyIv.slice(16), 'latin1'));
        const deflated = Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]);
        const data = JSON.parse(zlib.inflateSync(deflated).toString('utf8')) as { rows: unknown[] };
        check(data.rows.length === 20, '解密后的行数不对');
      },
      '~ the console (jsencrypt + crypto-js + pako)',
    ),
  );

  return results;
}

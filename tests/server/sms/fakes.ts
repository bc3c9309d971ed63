import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Local stand-ins for the two SMS providers. Each speaks its provider's protocol the way the real gateway does: it
 * recomputes the request's signature with the secret it was given (Aliyun ACS3-HMAC-SHA256, Tencent TC3-HMAC-SHA256),
 * refuses a wrong one, an old timestamp or a reused nonce with the provider's own error, checks the sign name, the
 * template and its parameters, applies a per-number minute limit when asked, and records every message it accepted.
 */

export interface SentSms {
  /** As the provider received it: 13800001234 (Aliyun), +8613800001234 (Tencent). */
  phone: string;
  signName: string;
  template: string;
  /** Aliyun: the TemplateParam object; Tencent: TemplateParamSet. */
  params: Record<string, string> | string[];
}

export interface FakeProvider {
  /** http://127.0.0.1:<port>: the SMS_*_ENDPOINT of the driver under test. */
  readonly url: string;
  /** Messages accepted, oldest first. */
  readonly sent: SentSms[];
  /** Error codes answered, oldest first (SignatureDoesNotMatch, AuthFailure.SignatureFailure …). */
  readonly refused: string[];
  /** The secret the fake checks signatures with; change it to play a key revoked in the provider's console. */
  secret: string;
  /** Messages one number may receive in the provider's short window (Aliyun a minute, Tencent 30 s); unset: no limit. */
  perNumberLimit?: number;
  close(): Promise<void>;
}

interface Incoming {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

interface Answer {
  status: number;
  body: unknown;
}

async function listen(handle: (req: Incoming) => Answer): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const incoming = { method: req.method ?? '', url: new URL(req.url ?? '/', 'http://fake'), headers: req.headers, body: Buffer.concat(chunks) };
      const out = handle(incoming);
      res.writeHead(out.status, { 'content-type': 'application/json;charset=utf-8' });
      res.end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sha256hex = (data: string | Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => crypto.createHmac('sha256', key).update(data).digest();
const header = (h: http.IncomingHttpHeaders, name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v.join(',') : (v ?? '');
};
const safeEqual = (a: string, b: string) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The providers' flow control of one number: at most `fake.perNumberLimit` messages within `windowMs`. */
function numberLimiter(fake: () => FakeProvider, windowMs: number) {
  const times = new Map<string, number[]>();
  return (phone: string): boolean => {
    const limit = fake().perNumberLimit;
    if (limit === undefined) return true;
    const now = Date.now();
    const recent = (times.get(phone) ?? []).filter((t) => now - t < windowMs);
    if (recent.length >= limit) return false;
    times.set(phone, [...recent, now]);
    return true;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Aliyun Dysmsapi 2017-05-25, SendSms (RPC style, V3 signature: help.aliyun.com/zh/sdk/product-overview/v3-request-structure-and-signature)

export interface AliyunFakeOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** Approved templates: code → the variables their text uses (SMS_100 → ['code'] for "验证码${code}"). */
  templates: Record<string, string[]>;
}

/** RFC 3986 percent-encoding, as the V3 canonical query string wants it. */
const acsEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export async function aliyunFake(options: AliyunFakeOptions): Promise<FakeProvider> {
  const WINDOW_MS = 60_000;
  const nonces = new Set<string>();
  const requestId = () => crypto.randomUUID().toUpperCase();
  const error = (status: number, code: string, message: string): Answer => {
    fake.refused.push(code);
    return { status, body: { RequestId: requestId(), HostId: 'dysmsapi.aliyuncs.com', Code: code, Message: message } };
  };
  const business = (code: string, message: string): Answer => {
    fake.refused.push(code);
    return { status: 200, body: { RequestId: requestId(), Code: code, Message: message } };
  };
  const withinLimit = numberLimiter(() => fake, WINDOW_MS);

  function handle(req: Incoming): Answer {
    const auth = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]{64})$/.exec(header(req.headers, 'authorization'));
    if (!auth) return error(400, 'IncompleteSignature', 'The request signature does not conform to Aliyun standards.');
    const [, keyId, signedList, signature] = auth;
    if (keyId !== options.accessKeyId) return error(404, 'InvalidAccessKeyId.NotFound', 'Specified access key is not found.');
    const signed = signedList.split(';');
    for (const required of ['host', 'x-acs-action', 'x-acs-content-sha256', 'x-acs-date', 'x-acs-signature-nonce', 'x-acs-version']) {
      if (!signed.includes(required)) return error(400, 'IncompleteSignature', `The header ${required} must be signed.`);
    }
    const payloadHash = header(req.headers, 'x-acs-content-sha256');
    if (payloadHash !== sha256hex(req.body)) return error(400, 'ContentSHA256NotMatched', 'The x-acs-content-sha256 does not match the body.');
    const query = [...req.url.searchParams.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${acsEncode(k)}=${acsEncode(v)}`)
      .join('&');
    const canonicalHeaders = [...signed]
      .sort()
      .map((h) => `${h}:${header(req.headers, h).trim()}\n`)
      .join('');
    const canonicalRequest = [req.method, req.url.pathname, query, canonicalHeaders, signed.join(';'), payloadHash].join('\n');
    const expected = hmac(fake.secret, `ACS3-HMAC-SHA256\n${sha256hex(canonicalRequest)}`).toString('hex');
    if (!safeEqual(expected, signature)) return error(400, 'SignatureDoesNotMatch', 'Specified signature is not matched with our calculation.');
    const date = Date.parse(header(req.headers, 'x-acs-date'));
    if (!Number.isFinite(date) || Math.abs(Date.now() - date) > 15 * 60_000)
      return error(400, 'InvalidTimeStamp.Expired', 'Specified time stamp or date value is expired.');
    const nonce = header(req.headers, 'x-acs-signature-nonce');
    if (nonces.has(nonce)) return error(400, 'SignatureNonceUsed', 'Specified signature nonce was used already.');
    nonces.add(nonce);
    if (header(req.headers, 'x-acs-action') !== 'SendSms' || header(req.headers, 'x-acs-version') !== '2017-05-25') {
      return error(400, 'InvalidAction.NotFound', 'Specified api is not found, please check your url and method.');
    }

    const p = req.url.searchParams;
    const phone = p.get('PhoneNumbers') ?? '';
    if (!/^1[3-9]\d{9}$/.test(phone)) return business('isv.MOBILE_NUMBER_ILLEGAL', '非法手机号');
    if (p.get('SignName') !== options.signName) return business('isv.SMS_SIGNATURE_ILLEGAL', '该账号下找不到对应签名');
    const template = p.get('TemplateCode') ?? '';
    const variables = options.templates[template];
    if (!variables) return business('isv.SMS_TEMPLATE_ILLEGAL', '该账号下找不到对应模板');
    let params: Record<string, string>;
    try {
      params = JSON.parse(p.get('TemplateParam') ?? '{}') as Record<string, string>;
    } catch {
      return business('isv.INVALID_JSON_PARAM', 'JSON参数不合法，只接受字符串值');
    }
    if (variables.some((v) => typeof params[v] !== 'string')) return business('isv.TEMPLATE_MISSING_PARAMETERS', '模板缺少变量');
    if (!withinLimit(phone)) return business('isv.BUSINESS_LIMIT_CONTROL', `触发分钟级流控Permits:${fake.perNumberLimit}`);
    fake.sent.push({ phone, signName: options.signName, template, params });
    return { status: 200, body: { RequestId: requestId(), Code: 'OK', Message: 'OK', BizId: `${Date.now()}^0` } };
  }

  const server = await listen(handle);
  const fake: FakeProvider = { url: server.url, sent: [], refused: [], secret: options.accessKeySecret, close: server.close };
  return fake;
}

// ---------------------------------------------------------------------------------------------------------------
// Tencent Cloud SMS 2021-01-11, SendSms (API 3.0, TC3-HMAC-SHA256: cloud.tencent.com/document/api/382/52071)

export interface TencentFakeOptions {
  secretId: string;
  secretKey: string;
  sdkAppId: string;
  signName: string;
  /** Approved templates: id → how many {n} variables their text has. */
  templates: Record<string, number>;
}

export async function tencentFake(options: TencentFakeOptions): Promise<FakeProvider> {
  const WINDOW_MS = 30_000;
  const requestId = () => crypto.randomUUID();
  // API 3.0 answers HTTP 200 with Response.Error for a refused call.
  const error = (code: string, message: string): Answer => {
    fake.refused.push(code);
    return { status: 200, body: { Response: { Error: { Code: code, Message: message }, RequestId: requestId() } } };
  };
  const withinLimit = numberLimiter(() => fake, WINDOW_MS);

  function handle(req: Incoming): Answer {
    const auth = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      header(req.headers, 'authorization'),
    );
    if (!auth) return error('AuthFailure.InvalidAuthorization', 'Authorization header format error.');
    const [, secretId, date, service, signedList, signature] = auth;
    if (secretId !== options.secretId) return error('AuthFailure.SecretIdNotFound', 'The SecretId is not found.');
    const timestamp = Number(header(req.headers, 'x-tc-timestamp'));
    if (!Number.isFinite(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) {
      return error('AuthFailure.SignatureExpire', 'Signature expired. Timestamp should be within 5 minutes of the server time.');
    }
    if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date)
      return error('AuthFailure.SignatureFailure', 'The credential date does not match the timestamp.');
    // The gateway takes the service from the host name (sms.tencentcloudapi.com → sms), as the SDK does when signing.
    const hostname = header(req.headers, 'host').replace(/:\d+$/, '');
    if (service !== hostname.split('.')[0]) return error('AuthFailure.SignatureFailure', 'The credential service does not match the host.');
    const signed = signedList.split(';');
    if (!signed.includes('content-type') || !signed.includes('host')) return error('AuthFailure.SignatureFailure', 'content-type and host must be signed.');
    // Signed as the client saw them: the host without the port the client dialled (443 for the real gateway).
    const canonicalHeaders = signed.map((h) => `${h}:${h === 'host' ? hostname : header(req.headers, h).trim().toLowerCase()}\n`).join('');
    const canonicalRequest = [req.method, req.url.pathname, req.url.search.slice(1), canonicalHeaders, signed.join(';'), sha256hex(req.body)].join('\n');
    const stringToSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/${service}/tc3_request\n${sha256hex(canonicalRequest)}`;
    const kSigning = hmac(hmac(hmac(`TC3${fake.secret}`, date), service), 'tc3_request');
    if (!safeEqual(hmac(kSigning, stringToSign).toString('hex'), signature)) {
      return error('AuthFailure.SignatureFailure', 'The provided credentials could not be validated. Please check your signature is correct.');
    }
    if (header(req.headers, 'x-tc-action') !== 'SendSms' || header(req.headers, 'x-tc-version') !== '2021-01-11') {
      return error('InvalidAction', 'The action does not exist.');
    }
    if (!header(req.headers, 'x-tc-region')) return error('MissingParameter', 'The request is missing a required parameter `Region`.');

    let body: { PhoneNumberSet?: string[]; SmsSdkAppId?: string; SignName?: string; TemplateId?: string; TemplateParamSet?: string[] };
    try {
      body = JSON.parse(req.body.toString('utf8'));
    } catch {
      return error('InvalidParameter', 'The request body is not JSON.');
    }
    if (body.SmsSdkAppId !== options.sdkAppId) return error('UnauthorizedOperation.SmsSdkAppIdVerifyFail', 'SmsSdkAppId verify failed.');
    if (body.SignName !== options.signName) return error('FailedOperation.SignatureIncorrectOrUnapproved', 'signature format error or signature not approved.');
    const variables = options.templates[body.TemplateId ?? ''];
    if (variables === undefined) return error('FailedOperation.TemplateIncorrectOrUnapproved', 'template format error or template not approved.');
    const params = body.TemplateParamSet ?? [];
    if (params.length !== variables)
      return error('FailedOperation.TemplateParamSetNotMatchApprovedTemplate', 'request content does not match template content.');
    // Each number has its own status: a refused number does not fail the call.
    const SendStatusSet = (body.PhoneNumberSet ?? []).map((phone) => {
      const status = (Code: string, Message: string) => ({
        SerialNo: crypto.randomUUID(),
        PhoneNumber: phone,
        Fee: Code === 'Ok' ? 1 : 0,
        SessionContext: '',
        Code,
        Message,
        IsoCode: 'CN',
      });
      if (!/^\+861[3-9]\d{9}$/.test(phone)) {
        fake.refused.push('InvalidParameterValue.IncorrectPhoneNumber');
        return status('InvalidParameterValue.IncorrectPhoneNumber', 'incorrect phone number');
      }
      if (!withinLimit(phone)) {
        fake.refused.push('LimitExceeded.PhoneNumberThirtySecondLimit');
        return status(
          'LimitExceeded.PhoneNumberThirtySecondLimit',
          'the number of SMS messages sent from a single mobile number within 30 seconds exceeds the upper limit',
        );
      }
      fake.sent.push({ phone, signName: body.SignName ?? '', template: body.TemplateId ?? '', params });
      return status('Ok', 'send success');
    });
    return { status: 200, body: { Response: { SendStatusSet, RequestId: requestId() } } };
  }

  const server = await listen(handle);
  const fake: FakeProvider = { url: server.url, sent: [], refused: [], secret: options.secretKey, close: server.close };
  return fake;
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Two RSA key pairs, generated at first start into DATA_DIR/keys (never committed):
 *  - request pair: the console encrypts its Authentication timestamp with the public half; the server keeps the private half.
 *  - response pair: the server wraps AES keys with the public half; the console holds the private half to unwrap them.
 * Rotation: `npm run keys:rotate` (or delete DATA_DIR/keys) and restart; consoles pick the new halves up on reload.
 */
export interface KeyMaterial {
  requestPrivate: crypto.KeyObject;
  requestPublicPem: string;
  responsePublic: crypto.KeyObject;
  responsePrivatePem: string;
  /** Short fingerprint so clients and logs can tell key generations apart. */
  fingerprint: string;
}

const FILES = {
  requestPrivate: 'request-private.pem',
  requestPublic: 'request-public.pem',
  responsePrivate: 'response-private.pem',
  responsePublic: 'response-public.pem',
} as const;

function generatePair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export function generateKeys(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const req = generatePair();
  const res = generatePair();
  const write = (name: string, pem: string) => fs.writeFileSync(path.join(dir, name), pem, { mode: 0o600 });
  write(FILES.requestPrivate, req.privatePem);
  write(FILES.requestPublic, req.publicPem);
  write(FILES.responsePrivate, res.privatePem);
  write(FILES.responsePublic, res.publicPem);
}

export function loadOrCreateKeys(dataDir: string): KeyMaterial {
  const dir = path.join(dataDir, 'keys');
  if (!Object.values(FILES).every((f) => fs.existsSync(path.join(dir, f)))) generateKeys(dir);
  const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
  const requestPublicPem = read(FILES.requestPublic);
  const responsePrivatePem = read(FILES.responsePrivate);
  return {
    requestPrivate: crypto.createPrivateKey(read(FILES.requestPrivate)),
    requestPublicPem,
    responsePublic: crypto.createPublicKey(read(FILES.responsePublic)),
    responsePrivatePem,
    fingerprint: crypto.createHash('sha256').update(requestPublicPem).update(responsePrivatePem).digest('hex').slice(0, 12),
  };
}

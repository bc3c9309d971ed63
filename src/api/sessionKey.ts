/**
 * Session-bound response encryption (docs/protocol.md, "session keys"): at sign-in the console makes an RSA-OAEP key
 * pair with WebCrypto and sends only the public half; the server then wraps each answer's AES key with it. The private
 * half is a non-extractable CryptoKey kept in IndexedDB, so no script (and no copy of /app-config.js) can read it out,
 * and answers captured for one session cannot be read with the static key.
 *
 * Where WebCrypto is missing (a plain-http address other than localhost is not a secure context) nothing is sent and
 * the server keeps to the spec's static-key mode.
 */

const DB_NAME = 'zy-session-key';
const STORE = 'keys';
const ID = 'current';
const ALGORITHM: RsaHashedKeyGenParams = { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };

let memory: CryptoKey | null = null;

const subtle = () => (typeof crypto !== 'undefined' && crypto.subtle ? crypto.subtle : null);

function openDb(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => resolve(null);
  });
}

async function withStore<T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T | undefined> {
  const db = await openDb();
  if (!db) return undefined;
  try {
    return await new Promise<T | undefined>((resolve) => {
      const req = act(db.transaction(STORE, mode).objectStore(STORE));
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => resolve(undefined);
    });
  } finally {
    db.close();
  }
}

const toBase64 = (bytes: ArrayBuffer) => {
  let bin = '';
  for (const b of new Uint8Array(bytes)) bin += String.fromCharCode(b);
  return btoa(bin);
};

/** Makes this sign-in's key pair and answers the public half (SPKI, base64), or undefined without WebCrypto. */
export async function createSessionKey(): Promise<string | undefined> {
  const s = subtle();
  if (!s) return undefined;
  try {
    const pair = (await s.generateKey(ALGORITHM, false, ['decrypt', 'encrypt'])) as CryptoKeyPair;
    memory = pair.privateKey;
    await withStore('readwrite', (store) => store.put(pair.privateKey, ID));
    return toBase64(await s.exportKey('spki', pair.publicKey));
  } catch {
    memory = null;
    return undefined;
  }
}

/** The private half for this session: from memory, or after a reload from IndexedDB. */
export async function sessionPrivateKey(): Promise<CryptoKey | null> {
  if (memory) return memory;
  const stored = await withStore<CryptoKey>('readonly', (store) => store.get(ID) as IDBRequest<CryptoKey>);
  memory = stored ?? null;
  return memory;
}

/** Signing out forgets the key: answers wrapped for the old session can no longer be opened here. */
export async function clearSessionKey(): Promise<void> {
  memory = null;
  await withStore('readwrite', (store) => store.delete(ID));
}

/** RSA-OAEP(SHA-256) unwrap of a session-mode answer's key + iv (32 ASCII characters). */
export async function unwrapWithSessionKey(wrappedBase64: string): Promise<string> {
  const key = await sessionPrivateKey();
  const s = subtle();
  if (!key || !s) throw new Error('响应数据解密失败：本机没有本次登录的密钥，请重新登录');
  const bytes = Uint8Array.from(atob(wrappedBase64), (c) => c.charCodeAt(0));
  try {
    return new TextDecoder().decode(await s.decrypt({ name: 'RSA-OAEP' }, key, bytes));
  } catch {
    throw new Error('响应数据解密失败：本机的登录密钥已更换，请重新登录');
  }
}

import crypto from 'node:crypto';

/**
 * RSA primitives compatible with jsencrypt (PKCS#1 v1.5, base64 text).
 *
 * Node 20 refuses PKCS#1 v1.5 padding in privateDecrypt (Marvin attack hardening), but jsencrypt only
 * produces that padding. We therefore decrypt with RSA_NO_PADDING (native, ~1 ms) and strip the
 * PKCS#1 v1.5 type-2 padding ourselves. The only thing decrypted this way is a public timestamp
 * (the Authentication header), so a padding oracle reveals nothing secret; see docs/protocol.md.
 */
export function rsaDecryptPkcs1(privateKey: crypto.KeyObject, base64: string): string | null {
  let block: Buffer;
  try {
    block = crypto.privateDecrypt({ key: privateKey, padding: crypto.constants.RSA_NO_PADDING }, Buffer.from(base64, 'base64'));
  } catch {
    return null;
  }
  // EM = 0x00 || 0x02 || PS (>= 8 non-zero bytes) || 0x00 || M
  if (block.length < 11 || block[0] !== 0x00 || block[1] !== 0x02) return null;
  const sep = block.indexOf(0x00, 2);
  if (sep < 10) return null;
  return block.subarray(sep + 1).toString('utf8');
}

/** Encrypt short text (an AES key) with PKCS#1 v1.5 so jsencrypt.decrypt can read it. */
export function rsaEncryptPkcs1(publicKey: crypto.KeyObject, text: string): string {
  return crypto.publicEncrypt({ key: publicKey, padding: crypto.constants.RSA_PKCS1_PADDING }, Buffer.from(text, 'utf8')).toString('base64');
}

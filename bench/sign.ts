import crypto from 'node:crypto';

/**
 * The client half of the request signature, exactly as signTimer (server/security/protocol.ts) makes it — RSA
 * PKCS#1 v1.5 of the Timer text, base64 — but with the public key parsed once: signTimer parses the PEM on every
 * call (~0.1 ms), which in the HTTP bench would compete with the server for the same two cores.
 */
export function timerSigner(requestPublicPem: string): () => { Authentication: string; Timer: string } {
  const key = crypto.createPublicKey(requestPublicPem);
  return () => {
    const timer = String(Date.now());
    const auth = crypto.publicEncrypt({ key, padding: crypto.constants.RSA_PKCS1_PADDING }, Buffer.from(timer));
    return { Authentication: auth.toString('base64'), Timer: timer };
  };
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setAppConfig } from '@/api/appConfig';
import { loadOrCreateKeys } from '../../../server/security/keys';
import { Protocol } from '../../../server/security/protocol';

/** Real key pairs made the way the server makes them, handed to the console as /app-config.js would. */
export function useRealKeys() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-unit-keys-'));
  const keys = loadOrCreateKeys(dir);
  setAppConfig({ requestPublicKey: keys.requestPublicPem, responsePrivateKey: keys.responsePrivatePem, keyId: keys.fingerprint, serverPublishTime: '' });
  const protocol = new Protocol(keys, 5 * 60 * 1000);
  return { keys, protocol, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

// The request-context types every route and hook file needs (who is calling, what a route declares, what the app
// carries). They live in this leaf file, apart from app.ts, so that a module file naming them does not import the
// app, which imports every module's routes: that made one import circle of the whole server.
import type { ServerConfig } from '../config.js';
import type { Db } from '../db/connection.js';
import type { Access } from '../security/access.js';
import type { KeyMaterial } from '../security/keys.js';
import type { NonceStore } from '../security/nonces.js';
import type { Protocol } from '../security/protocol.js';
import type { SmsSender } from '../sms/index.js';

/**
 * Who may call a route. Every /dev-api and /appv2 route must declare one (checked when it is registered):
 *  - 'public': no token (sign-in, register, platform info),
 *  - 'login': any signed-in user,
 *  - anything else: a permission string such as 'system:config:list'.
 */
export type RoutePermission = 'public' | 'login' | (string & {});

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
    /** Always answer encrypted (code 20000), not only when the request asks with authEncode=1. */
    sensitive?: boolean;
    /** Whether the route writes: required on every API route (checked when it is registered). Only a declared read
     *  may repeat a signature for a while or skip the duplicate-submit window; see server/security/writeGuard.ts. */
    write?: boolean;
    /** Money moves: two copies of one request have one effect (server/security/idempotency.ts). Needs write: true. */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    db: Db;
    keys: KeyMaterial;
    protocol: Protocol;
    config: ServerConfig;
    sms: SmsSender;
    routeRegistry: RegisteredRoute[];
    nonces: NonceStore;
  }
}

export interface AuthContext extends Access {
  userId: number;
  userName: string;
  tokenHash: string;
  /** The console's session public key (SPKI base64), when it sent one at sign-in. */
  clientKey?: string | null;
}

export interface RegisteredRoute {
  method: string;
  url: string;
  permission: RoutePermission;
  sensitive: boolean;
  /** Its declared config.write. */
  write: boolean;
}

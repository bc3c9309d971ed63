import type { RawBuilder } from 'kysely';
import type { AuthContext } from '../http/context.js';
import type { WriteContext } from './records.js';
import type { Q, Row } from './store.js';

/**
 * Server-side overrides of one schema entity (docs/schemas.md "Hooks"): business rules a JSON schema cannot say —
 * hashing a password, keeping link tables (user ↔ role, role ↔ menu) in step, refusing to touch the super admin.
 * Hooks run inside the write's transaction: throwing an ApiError refuses the write and nothing is kept.
 *
 * They are registered in code, by schema $id, in server/system/hooks.ts (the one place that lists them), and passed to
 * the engine when it is registered. A schema without hooks needs nothing there.
 */
export interface WriteEvent {
  ctx: WriteContext;
  mode: 'create' | 'update' | 'patch' | 'import';
  /** Validated values about to be stored, by property; a hook may change them (e.g. hash a password). */
  values: Record<string, unknown>;
  /** The client's body as sent (extra keys such as roleIds live here); for imports, the row's cells. */
  body: Record<string, unknown>;
  /** The stored row (columns) before an update. */
  existing?: Row;
}

export interface EntityHooks {
  /** Before insert / update, after validation and the generic business checks. */
  beforeWrite?(event: WriteEvent): Promise<void> | void;
  /** After insert / update, with the record's primary key. */
  afterWrite?(event: WriteEvent & { id: number }): Promise<void> | void;
  /** Before rows are deleted (rows as stored columns); throw to refuse. */
  beforeDelete?(ctx: WriteContext, rows: Row[]): Promise<void> | void;
  /** After rows were deleted (e.g. drop their link rows). */
  afterDelete?(ctx: WriteContext, ids: number[]): Promise<void> | void;
  /**
   * Rows the signed-in user may see at all (data scope): a condition over the table alias `t`, or null for every row.
   * Applied to list, export and the single-record answer (a row outside it: 没有权限访问…); writes check it in their own
   * hooks.
   */
  listScope?(ctx: { k: Q; auth: AuthContext | undefined }): Promise<RawBuilder<unknown> | null>;
  /** Extra keys of a single record's answer (GET {base}/{id}), e.g. roleIds of a user. */
  decorate?(ctx: Pick<WriteContext, 'k'>, record: Record<string, unknown>): Promise<Record<string, unknown>> | Record<string, unknown>;
  /**
   * The record as readers see it, for the list, its export and the public read API (not the single-record answer,
   * which feeds the edit form): derived values, e.g. a live broadcast's status from its times (server/content/liveStatus.ts).
   */
  present?(record: Record<string, unknown>, now: number): Record<string, unknown>;
}

export type HooksRegistry = Record<string, EntityHooks>;

// An entity carries the hooks registered for its schema (none for most). Declared here, not in model.ts: these types
// name Entity (through WriteContext), so model.ts importing them would make an import circle.
declare module './model.js' {
  interface Entity {
    /** Server-side overrides registered for this schema; none for most. */
    hooks?: EntityHooks;
  }
}

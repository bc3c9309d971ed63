import { sql } from 'kysely';
import type { HooksRegistry } from '../engine/hooks.js';
import { LIVE_HOOKS } from './liveStatus.js';

/**
 * Engine hooks of the content schemas (server/engine/hooks.ts), by $id. 意见反馈: a new or changed reply stamps its
 * time and marks it unread for the submitter (read status 0); the submitter's app marks it read (1) when they open
 * it (POST /appv2/api/feedback/read, routes.ts). Both columns are readOnly in the schema, so they are set here.
 */
export const CONTENT_HOOKS: HooksRegistry = {
  // 直播列表: the status every reader sees is derived from the times (liveStatus.ts).
  live_broadcast: LIVE_HOOKS,
  content_feedback: {
    async afterWrite({ values, existing, ctx, id }) {
      if (!('reply' in values)) return;
      const reply = typeof values.reply === 'string' ? values.reply.trim() : '';
      const before = existing ? String(existing.reply ?? '').trim() : '';
      if (!reply || reply === before) return;
      await sql`update content_feedback set reply_time = ${ctx.now}, read_status = '0' where feedback_id = ${id}`.execute(ctx.k);
    },
  },
};

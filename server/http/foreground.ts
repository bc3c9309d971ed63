import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Requests being answered right now, so that long background work in this process (a 50 000-row import checking and
 * writing its rows) steps aside for them (issue 22: other users' list calls stay within 2× of idle during an import).
 *
 * Every request counts from `onRequest` until its answer is sent or it is aborted; a request that turns into
 * background work says so (`markBackground`) and stops counting. Background work slices its loops by time (the
 * import's `Slicer`) and, between slices, waits until no counted request is left, for at most a few milliseconds, so
 * a steady stream of requests slows an import down but never stops it.
 */
const COUNTED = Symbol('foreground');
type Counted = FastifyRequest & { [COUNTED]?: boolean };

let active = 0;
let waiters: Array<() => void> = [];

function leave(request: Counted): void {
  if (!request[COUNTED]) return;
  request[COUNTED] = false;
  active--;
  if (active > 0) return;
  const ready = waiters;
  waiters = [];
  for (const wake of ready) wake();
}

export function registerForeground(app: FastifyInstance): void {
  app.addHook('onRequest', (request: Counted, _reply, done) => {
    request[COUNTED] = true;
    active++;
    done();
  });
  app.addHook('onResponse', (request: Counted, _reply, done) => {
    leave(request);
    done();
  });
  app.addHook('onRequestAbort', (request: Counted, done) => {
    leave(request);
    done();
  });
}

/** This request is background work from now on: other requests no longer wait for it, it waits for them. */
export function markBackground(request: FastifyRequest): void {
  leave(request as Counted);
}

/** Resolves when no counted request is in flight, or after `maxMs` at most. */
export function foregroundIdle(maxMs: number): Promise<void> {
  if (active <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(wake, maxMs);
    function wake() {
      clearTimeout(timer);
      resolve();
    }
    waiters.push(wake);
  });
}

import { createRequire } from 'node:module';

/**
 * pg-boss 10.4.2's worker records the end of a run with `this.complete(...)` or
 * `this.fail(...)` without awaiting or catching the promise (src/manager.js, `watch` ->
 * `onFetch`). When the database connection is cut at that moment (a PostgreSQL restart,
 * a failover, `pg_terminate_backend`), the promise rejects with nobody to handle it and Node
 * ends the process.
 *
 * Installed once on pg-boss's Manager (before the first queue starts), each `complete` and
 * `fail` keeps its promise and result for a caller that awaits it, and the rejection is
 * handled here: it is reported through the manager's `error` event (the queue logs it at
 * warn) and the same statement is tried again a few times, `RETRY_DELAYS_MS` apart. Both
 * statements only touch runs still in progress (pg-boss's SQL: `state = 'active'`, `state <
 * 'completed'`), so a retry after a write that did commit changes nothing. Should every try
 * fail, the run stays active and the queue's maintenance expires it and runs it again
 * (the job's expireInSeconds and retryLimit), as for an instance that died.
 */
export const RETRY_DELAYS_MS: readonly number[] = [500, 1_000, 2_000, 4_000, 8_000];

type Completion = (this: ManagerLike, name: string, id: unknown, data?: unknown, options?: unknown) => Promise<unknown>;

interface ManagerLike {
  emit(event: string, arg: unknown): boolean;
}

const INSTALLED = Symbol.for('marquee.jobs.guardedCompletions');

function ids(id: unknown): string {
  return Array.isArray(id) ? id.join(', ') : String(id);
}

/** Reports through the manager's `error` event; never throws (an emitter without listener would). */
function report(manager: ManagerLike, error: Error): void {
  try {
    manager.emit('error', error);
  } catch {
    // No listener on the queue: nothing more to tell.
  }
}

function guard(method: 'complete' | 'fail', original: Completion): Completion {
  const guarded = function (this: ManagerLike, ...args: Parameters<Completion>) {
    const [name, id] = args;
    const promise = original.apply(this, args);
    const retry = (attempt: number, cause: unknown) => {
      const message = cause instanceof Error ? cause.message : String(cause);
      const delay = RETRY_DELAYS_MS[attempt];
      const next =
        delay === undefined
          ? 'gave up; the run stays active until the queue expires it and runs it again'
          : `trying again in ${delay} ms`;
      report(
        this,
        new Error(
          `could not record the ${method === 'complete' ? 'end' : 'failure'} of job ${ids(id)} (${name}): ${message}; ${next}`,
          {
            cause,
          },
        ),
      );
      if (delay === undefined) return;
      const timer = setTimeout(() => {
        original.apply(this, args).catch((error: unknown) => retry(attempt + 1, error));
      }, delay);
      timer.unref();
    };
    promise.catch((error: unknown) => retry(0, error));
    return promise;
  };
  // pg-boss publishes a manager's methods on the PgBoss instance under their function's name.
  Object.defineProperty(guarded, 'name', { value: method });
  return guarded;
}

/** Guards pg-boss's Manager#complete and #fail (idempotent). */
export function guardJobCompletions(): void {
  const require = createRequire(import.meta.url);
  const Manager = require('pg-boss/src/manager.js') as { prototype: Record<string | symbol, unknown> };
  const proto = Manager.prototype;
  if (proto[INSTALLED]) return;
  for (const method of ['complete', 'fail'] as const) {
    const original = proto[method];
    if (typeof original !== 'function') throw new Error(`pg-boss's Manager has no ${method}(): check its version`);
    proto[method] = guard(method, original as Completion);
  }
  proto[INSTALLED] = true;
}

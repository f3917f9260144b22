/**
 * Per-set serialization of the console's guarded changes (read the complete set, check the version, store the
 * previous set, apply): while one change to an organization's set runs, the next waits, so the version check is
 * exact. In one process a promise chain does it; with PostgreSQL, every replica also takes a transaction-level
 * advisory lock on a hash of the set's kind and organization, held until the change is recorded.
 */
import { HttpProblem } from '../../../node/problem-writer';
import type { PgDatabase } from './postgres';

export interface SetLocks {
  /** Runs `work` while no other change to the same set (`kind` + `key`, say git-permissions + org) runs. */
  run<T>(kind: string, key: string, work: () => Promise<T>): Promise<T>;
}

/** One process: changes to one set run one after another, in the order they came. */
export function createLocalLocks(): SetLocks {
  const chains = new Map<string, Promise<unknown>>();
  return {
    run(kind, key, work) {
      const id = `${kind}\u0000${key}`;
      const prev = chains.get(id) ?? Promise.resolve();
      const next = prev.catch(() => undefined).then(work);
      chains.set(id, next);
      void next
        .finally(() => {
          if (chains.get(id) === next) chains.delete(id);
        })
        .catch(() => undefined);
      return next;
    },
  };
}

export interface PgLockOptions {
  /** Longest a change waits for another replica's change to the same set (default 2 minutes); then 503. */
  waitMs?: number;
  /** How often a waiting replica tries the lock again (default 50 ms). */
  pollMs?: number;
}

/**
 * Every replica: the local chain first (one waiter per set and process, so waiting holds no extra connection),
 * then `pg_try_advisory_xact_lock` in a transaction on a dedicated connection, tried until it is free. The lock
 * is released when the transaction ends — also when the connection is lost, so a crashed replica never leaves
 * a set locked.
 */
export function createPgLocks(db: PgDatabase, opts: PgLockOptions = {}): SetLocks {
  const local = createLocalLocks();
  const waitMs = opts.waitMs ?? 120_000;
  const pollMs = opts.pollMs ?? 50;
  return {
    run: (kind, key, work) =>
      local.run(kind, key, () =>
        db.withClient(async (client) => {
          await client.query('BEGIN');
          let committed = false;
          try {
            const deadline = Date.now() + waitMs;
            for (;;) {
              const r = await client.query<{ ok: boolean }>(
                'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok',
                [`agent-platform-console:${kind}:${key}`],
              );
              if (r.rows[0]?.ok) break;
              if (Date.now() > deadline) {
                throw new HttpProblem(
                  503,
                  'Another change to this set is still being applied (through another console replica). Nothing was applied; try again in a moment.',
                  {},
                  { 'retry-after': '5' },
                );
              }
              await new Promise((r) => setTimeout(r, pollMs));
            }
            const result = await work();
            // The lock ends with the transaction. If the connection broke meanwhile, the lock is gone already.
            await client.query('COMMIT').catch(() => undefined);
            committed = true;
            return result;
          } finally {
            if (!committed) await client.query('ROLLBACK').catch(() => undefined);
          }
        }),
      ),
  };
}

/**
 * Per-set serialization of the console's guarded changes (read the complete set, check the version, store the
 * previous set, apply, record), with fencing, and the per-replica bound on how many run at once.
 *
 *   - In one process a promise chain per set runs changes one after another (waiting costs nothing).
 *   - A replica runs at most `maxRunning` guarded changes at once; the next ones wait in one FIFO queue of at
 *     most `maxQueued`, and past it the change is refused with 503 + Retry-After before anything is read. This
 *     bounds what the changes need from the store's connection pool.
 *   - With PostgreSQL every replica also takes the set's lease: a row in `console_set_leases` with a fencing
 *     token from a sequence and an expiry on the database's clock. The lease is a committed row, not a held
 *     connection, so it survives a database restart and a cut connection, and waiting or working holds no
 *     connection. The holder renews it while it works; a replica that dies stops renewing and the lease runs out.
 *
 * Fencing: before each upstream write and before recording, the change calls `fence.check()`, which proves in
 * one statement that the lease still carries its token and extends it past the longest an upstream write may
 * take (`writeBudgetMs`). A change whose lease ran out, was taken over, or cannot be proved (the database is
 * unreachable) gets `LockLost` and stops before writing.
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Migration } from '../../../node/db';
import { HttpProblem } from '../../../node/problem-writer';
import { StoreUnavailable, type PgDatabase } from './postgres';

/** What a running change uses to prove it still holds its set's lock. */
export interface Fence {
  /** Proves the lock is still held (and keeps it for the next upstream write); throws LockLost if not. */
  check(): Promise<void>;
  /** The lease's fencing token (PostgreSQL), null in one process (the chain cannot be lost). */
  readonly token: number | null;
}

/** The change no longer holds (or cannot prove it holds) its set's lock: it must not write. */
export class LockLost extends Error {
  constructor(
    readonly reason: 'lost' | 'store_unavailable',
    detail: string,
  ) {
    super(detail);
    this.name = 'LockLost';
  }
}

export interface SetLocks {
  /** Runs `work` while no other change to the same set (`kind` + `key`, say git-permissions + org) runs. */
  run<T>(kind: string, key: string, work: (fence: Fence) => Promise<T>): Promise<T>;
  /**
   * Runs `work` only when the set is free now — no change to it runs in any replica — without waiting and
   * outside the bound on running changes (reconciliation). Answers `{ ran: false }` when it is taken.
   */
  tryRun<T>(
    kind: string,
    key: string,
    work: (fence: Fence) => Promise<T>,
  ): Promise<{ ran: true; value: T } | { ran: false }>;
}

export interface GuardedLimits {
  /** Guarded changes one replica runs at once (CONSOLE_MAX_GUARDED_CHANGES; default 4). */
  maxRunning?: number;
  /** Changes that may wait for a slot (CONSOLE_GUARDED_CHANGES_QUEUE; default 100); past it, 503. */
  maxQueued?: number;
}

export const DEFAULT_MAX_GUARDED_CHANGES = 4;
export const DEFAULT_GUARDED_QUEUE = 100;
/** Seconds a change refused for a full queue is asked to wait. */
export const QUEUE_RETRY_AFTER_S = 2;

/** A counting semaphore with a FIFO queue of bounded length. */
export function createSlots(limits: GuardedLimits = {}) {
  const max = Math.max(1, limits.maxRunning ?? DEFAULT_MAX_GUARDED_CHANGES);
  const maxQueued = Math.max(0, limits.maxQueued ?? DEFAULT_GUARDED_QUEUE);
  let running = 0;
  const queue: Array<() => void> = [];
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };
  return {
    stats: () => ({ running, queued: queue.length, max, maxQueued }),
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running < max) running++;
      else {
        if (queue.length >= maxQueued) {
          throw new HttpProblem(
            503,
            `This console replica is already applying ${max} guarded changes with ${queue.length} more waiting. Nothing was applied; try again in a moment.`,
            { title: 'Service Unavailable', reason: 'guarded_changes_busy', running: max, queued: queue.length },
            { 'retry-after': String(QUEUE_RETRY_AFTER_S) },
          );
        }
        // The slot is handed over by `release`, so `running` stays counted and no newcomer jumps the queue.
        await new Promise<void>((resolve) => queue.push(resolve));
      }
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}

/**
 * The 503 of a guarded change whose store failed under it. Every store call that can fail this way comes
 * before the upstream write (taking the lock, recording the previous set); after the write a failure to record
 * is retried and then answered as applied. So nothing was applied, and the admin is told so.
 */
export function notAppliedForStore(err: StoreUnavailable): HttpProblem {
  return new HttpProblem(
    503,
    `${err.message}. Nothing was applied: the change stopped before writing to the API. This console replica answers again by itself once its database is back; apply the change again then.`,
    { title: 'Service Unavailable', store: err.store, applied: 'none' },
    { 'retry-after': '5' },
  );
}

const noFence: Fence = { check: async () => undefined, token: null };

/** One process: changes to one set run one after another, in the order they came. */
export function createLocalLocks(limits: GuardedLimits = {}): SetLocks {
  const chains = new Map<string, Promise<unknown>>();
  const slots = createSlots(limits);
  const chain = <T>(id: string, work: () => Promise<T>): Promise<T> => {
    const prev = chains.get(id) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(work);
    chains.set(id, next);
    void next
      .finally(() => {
        if (chains.get(id) === next) chains.delete(id);
      })
      .catch(() => undefined);
    return next;
  };
  return {
    run: (kind, key, work) => chain(`${kind}\u0000${key}`, () => slots.run(() => work(noFence))),
    async tryRun(kind, key, work) {
      const id = `${kind}\u0000${key}`;
      if (chains.has(id)) return { ran: false };
      return { ran: true, value: await chain(id, () => work(noFence)) };
    },
  };
}

export const leaseMigrations: Migration[] = [
  {
    id: 'set-leases-001',
    sql: `CREATE SEQUENCE console_fencing_tokens;
    CREATE TABLE console_set_leases (
      set_key TEXT PRIMARY KEY,
      token BIGINT NOT NULL,
      holder TEXT NOT NULL,
      acquired_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    );`,
  },
];

export interface PgLockOptions extends GuardedLimits {
  /** Longest a change waits for another replica's change to the same set (default 2 minutes); then 503. */
  waitMs?: number;
  /** How often a waiting replica tries the lease again (default 50 ms). */
  pollMs?: number;
  /** How long a lease lasts without renewal (default 10 s): how soon a dead replica's set is free again. */
  leaseTtlMs?: number;
  /** How long a fence check keeps the lease at least: the longest one upstream write may take, plus margin. */
  writeBudgetMs?: number;
  /** How long a fence check retries a connection error before it gives up (default 3 s). */
  fenceRetryMs?: number;
  /** Names this replica in the lease table (default host:pid:random). */
  holder?: string;
}

/** The database's clock in milliseconds: every replica judges expiry by the same clock. */
const NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;

export function replicaId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * Every replica: the local chain first (one waiter per set and process), then a slot, then the set's lease in
 * PostgreSQL, tried until it is free. The lease is renewed every third of its lifetime while the work runs and
 * deleted when it ends; if the replica dies, it simply runs out.
 */
export function createPgLocks(db: PgDatabase, opts: PgLockOptions = {}): SetLocks {
  const local = createLocalLocks({ maxRunning: Number.MAX_SAFE_INTEGER });
  const slots = createSlots(opts);
  const waitMs = opts.waitMs ?? 120_000;
  const pollMs = opts.pollMs ?? 50;
  const ttl = opts.leaseTtlMs ?? 10_000;
  const writeBudget = Math.max(ttl, opts.writeBudgetMs ?? 35_000);
  const fenceRetryMs = opts.fenceRetryMs ?? 3_000;
  const holder = opts.holder ?? replicaId();

  /** One attempt: the lease's token when it was free (or expired), null when another holds it. */
  async function acquire(setKey: string): Promise<number | null> {
    const rows = await db.query<{ token: number }>(
      `INSERT INTO console_set_leases AS l (set_key, token, holder, acquired_at, expires_at)
       VALUES ($1, nextval('console_fencing_tokens'), $2, ${NOW_MS}, ${NOW_MS} + $3)
       ON CONFLICT (set_key) DO UPDATE SET token = excluded.token, holder = excluded.holder,
         acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
       WHERE l.expires_at < ${NOW_MS}
       RETURNING token`,
      [setKey, holder, ttl],
    );
    return rows[0]?.token ?? null;
  }

  /** Extends the lease to at least `ms` from now if it still carries `token` and has not run out. */
  async function extend(setKey: string, token: number, ms: number): Promise<boolean> {
    const rows = await db.query(
      `UPDATE console_set_leases SET expires_at = greatest(expires_at, ${NOW_MS} + $3)
       WHERE set_key = $1 AND token = $2 AND expires_at > ${NOW_MS} RETURNING token`,
      [setKey, token, ms],
    );
    return rows.length === 1;
  }

  async function holding<T>(setKey: string, token: number, work: (fence: Fence) => Promise<T>): Promise<T> {
    let lost = false;
    const renew = setInterval(
      () => {
        extend(setKey, token, ttl).then(
          (ok) => void (lost ||= !ok),
          // A renewal the database could not answer is tried again next time; the fence decides.
          () => undefined,
        );
      },
      Math.max(50, Math.floor(ttl / 3)),
    );
    renew.unref();
    const fence: Fence = {
      token,
      async check() {
        if (lost) {
          throw new LockLost('lost', 'this change lost its lock on the set (another replica took it over)');
        }
        const deadline = Date.now() + fenceRetryMs;
        for (;;) {
          try {
            if (await extend(setKey, token, writeBudget)) return;
            lost = true;
            throw new LockLost(
              'lost',
              'this change lost its lock on the set (it ran out while the database could not be reached, and another change may have taken it)',
            );
          } catch (err) {
            if (!(err instanceof StoreUnavailable)) throw err;
            if (Date.now() + 200 > deadline) {
              throw new LockLost(
                'store_unavailable',
                `this change cannot prove it still holds its lock on the set: ${err.message}`,
              );
            }
            await new Promise((r) => setTimeout(r, 200));
          }
        }
      },
    };
    try {
      return await work(fence);
    } finally {
      clearInterval(renew);
      // A lease that cannot be deleted now runs out by itself.
      await db
        .query('DELETE FROM console_set_leases WHERE set_key = $1 AND token = $2', [setKey, token])
        .catch(() => undefined);
    }
  }

  const keyOf = (kind: string, key: string) => `${kind}:${key}`;

  return {
    run: (kind, key, work) =>
      local.run(kind, key, () =>
        slots.run(async () => {
          const setKey = keyOf(kind, key);
          const deadline = Date.now() + waitMs;
          for (;;) {
            const token = await acquire(setKey);
            if (token !== null) return holding(setKey, token, work);
            if (Date.now() > deadline) {
              throw new HttpProblem(
                503,
                'Another change to this set is still being applied (through another console replica). Nothing was applied; try again in a moment.',
                { title: 'Service Unavailable' },
                { 'retry-after': '5' },
              );
            }
            await new Promise((r) => setTimeout(r, pollMs));
          }
        }),
      ),
    async tryRun(kind, key, work) {
      // null: another replica holds the set.
      const r = await local.tryRun(kind, key, async () => {
        const setKey = keyOf(kind, key);
        const token = await acquire(setKey);
        return token === null ? null : { value: await holding(setKey, token, work) };
      });
      return !r.ran || r.value === null ? { ran: false } : { ran: true, value: r.value.value };
    },
  };
}

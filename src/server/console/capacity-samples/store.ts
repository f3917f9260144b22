/**
 * The store of capacity samples: one row per sampling interval, in SQLite (console.db) or PostgreSQL (shared by
 * replicas). A replica first claims the interval's row (an insert that only one replica wins, whatever the
 * number of replicas), then reads the API and completes it: so each interval is sampled once across replicas,
 * and an interval whose reads failed keeps a row that says why (a gap named as such, not a silent hole).
 */
import type { CapacitySample } from '../../../api/console/capacity-samples';
import type { Db, Migration } from '../../../node/db';
import type { PgDatabase } from '../storage/postgres';

export const capacitySampleMigrations: Migration[] = [
  {
    id: 'capacity-samples-001',
    sql: `CREATE TABLE capacity_samples (
      sampled_at INTEGER PRIMARY KEY,
      claimed_at INTEGER NOT NULL,
      taken_at INTEGER,
      queue_size INTEGER,
      queue_status TEXT,
      hypervisors_total INTEGER,
      hypervisors_by_status TEXT,
      utilization_avg REAL,
      utilization_max REAL,
      error TEXT
    );`,
  },
];

export const capacitySamplePgMigrations: Migration[] = [
  {
    id: 'capacity-samples-001',
    sql: `CREATE TABLE capacity_samples (
      sampled_at BIGINT PRIMARY KEY,
      claimed_at BIGINT NOT NULL,
      taken_at BIGINT,
      queue_size INTEGER,
      queue_status TEXT,
      hypervisors_total INTEGER,
      hypervisors_by_status TEXT,
      utilization_avg DOUBLE PRECISION,
      utilization_max DOUBLE PRECISION,
      error TEXT
    );`,
  },
];

/** What a completed interval holds (its `sampled_at` is the claim's). */
export type SampleFigures = Omit<CapacitySample, 'sampled_at'>;

export interface CapacitySampleStore {
  /** Claims the interval starting at `slot`: true for the one caller (of any replica) that gets to sample it. */
  claim(slot: number, now: number): Promise<boolean>;
  /** Writes the claimed interval's figures (or its error). */
  complete(slot: number, figures: SampleFigures): Promise<void>;
  /**
   * Samples with `sampled_at` ≥ `since`, oldest first; at most `limit` (the newest ones when more). With
   * `strideS`, only intervals starting on a multiple of it: a long window thinned evenly by the database.
   */
  list(since: number, limit: number, strideS?: number): Promise<CapacitySample[]>;
  /** How many samples since `since`. */
  count(since: number): Promise<number>;
  /** Removes samples older than `before`; answers how many. */
  prune(before: number): Promise<number>;
}

interface Row {
  sampled_at: number;
  claimed_at: number;
  taken_at: number | null;
  queue_size: number | null;
  queue_status: string | null;
  hypervisors_total: number | null;
  hypervisors_by_status: string | null;
  utilization_avg: number | null;
  utilization_max: number | null;
  error: string | null;
}

/** A claim older than this with no figures was left by a replica that stopped mid-read. */
export const ABANDONED_CLAIM_S = 120;

function toSample(r: Row, now: number): CapacitySample {
  const pending = r.taken_at === null && r.error === null;
  return {
    sampled_at: Number(r.sampled_at),
    taken_at: r.taken_at === null ? null : Number(r.taken_at),
    queue_size: r.queue_size,
    queue_status: r.queue_status,
    hypervisors_total: r.hypervisors_total,
    hypervisors_by_status: r.hypervisors_by_status
      ? (JSON.parse(r.hypervisors_by_status) as Record<string, number>)
      : null,
    utilization_avg: r.utilization_avg,
    utilization_max: r.utilization_max,
    error:
      pending && now - Number(r.claimed_at) > ABANDONED_CLAIM_S
        ? 'Not sampled: the replica that took this interval stopped before it finished'
        : r.error,
  };
}

const values = (slot: number, f: SampleFigures) => [
  f.taken_at,
  f.queue_size,
  f.queue_status,
  f.hypervisors_total,
  f.hypervisors_by_status ? JSON.stringify(f.hypervisors_by_status) : null,
  f.utilization_avg,
  f.utilization_max,
  f.error,
  slot,
];

const COLUMNS = `taken_at, queue_size, queue_status, hypervisors_total, hypervisors_by_status, utilization_avg,
  utilization_max, error`;

export function createSqliteCapacitySampleStore(db: Db, clock: () => number): CapacitySampleStore {
  const claim = db.prepare(
    'INSERT INTO capacity_samples (sampled_at, claimed_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const complete = db.prepare(
    `UPDATE capacity_samples SET taken_at = ?, queue_size = ?, queue_status = ?, hypervisors_total = ?,
       hypervisors_by_status = ?, utilization_avg = ?, utilization_max = ?, error = ? WHERE sampled_at = ?`,
  );
  const list = db.prepare<[number, number, number], Row>(
    `SELECT * FROM (SELECT sampled_at, claimed_at, ${COLUMNS} FROM capacity_samples
       WHERE sampled_at >= ? AND sampled_at % ? = 0 ORDER BY sampled_at DESC LIMIT ?) ORDER BY sampled_at ASC`,
  );
  const count = db.prepare<[number], { n: number }>('SELECT count(*) AS n FROM capacity_samples WHERE sampled_at >= ?');
  const prune = db.prepare('DELETE FROM capacity_samples WHERE sampled_at < ?');
  return {
    claim: async (slot, now) => claim.run(slot, now).changes === 1,
    complete: async (slot, f) => void complete.run(...values(slot, f)),
    list: async (since, limit, strideS = 1) => list.all(since, strideS, limit).map((r) => toSample(r, clock())),
    count: async (since) => count.get(since)!.n,
    prune: async (before) => prune.run(before).changes,
  };
}

export function createPgCapacitySampleStore(db: PgDatabase, clock: () => number): CapacitySampleStore {
  return {
    async claim(slot, now) {
      const rows = await db.query(
        'INSERT INTO capacity_samples (sampled_at, claimed_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING sampled_at',
        [slot, now],
      );
      return rows.length === 1;
    },
    async complete(slot, f) {
      await db.query(
        `UPDATE capacity_samples SET taken_at = $1, queue_size = $2, queue_status = $3, hypervisors_total = $4,
           hypervisors_by_status = $5, utilization_avg = $6, utilization_max = $7, error = $8 WHERE sampled_at = $9`,
        values(slot, f),
      );
    },
    async list(since, limit, strideS = 1) {
      const rows = await db.query<Row>(
        `SELECT * FROM (SELECT sampled_at, claimed_at, ${COLUMNS} FROM capacity_samples
           WHERE sampled_at >= $1 AND sampled_at % $2 = 0 ORDER BY sampled_at DESC LIMIT $3) AS recent
         ORDER BY sampled_at ASC`,
        [since, strideS, limit],
      );
      return rows.map((r) => toSample(r, clock()));
    },
    async count(since) {
      const rows = await db.query<{ n: number }>('SELECT count(*) AS n FROM capacity_samples WHERE sampled_at >= $1', [
        since,
      ]);
      return Number(rows[0]?.n ?? 0);
    },
    async prune(before) {
      const rows = await db.query('DELETE FROM capacity_samples WHERE sampled_at < $1 RETURNING sampled_at', [before]);
      return rows.length;
    },
  };
}

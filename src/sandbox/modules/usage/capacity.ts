/**
 * Capacity: the queue is the sessions waiting to run (`new`, `claimed`, `resuming`); the hypervisors' utilization
 * follows the running sessions, shared out by each host's weight over the hosts that take sessions (available,
 * and draining ones at a third of their weight), on top of each host's own load. A host holds
 * `SESSIONS_PER_HYPERVISOR` sessions at 100 %.
 */
import type { Hypervisor, HypervisorStatusFilter, QueueState } from '../../../api/operations/capacity';
import type { Db } from '../../../node/db';
import { paginate } from '../../cursor';
import type { Rng } from '../../random';

export const QUEUED_STATUSES = ['new', 'claimed', 'resuming'] as const;
export const SESSIONS_PER_HYPERVISOR = 32;
/** Queued sessions per available hypervisor at which the indicator turns elevated, then high. */
export const QUEUE_THRESHOLDS = { elevated: 2, high: 5 } as const;

export function queueState(db: Db): QueueState {
  const queued = (
    db
      .prepare(`SELECT count(*) AS n FROM sessions WHERE status IN (${QUEUED_STATUSES.map(() => '?').join(', ')})`)
      .get(...QUEUED_STATUSES) as { n: number }
  ).n;
  const available = (
    db.prepare(`SELECT count(*) AS n FROM hypervisors WHERE status = 'available'`).get() as { n: number }
  ).n;
  const perHost = queued / Math.max(1, available);
  const status =
    queued === 0 || perHost < QUEUE_THRESHOLDS.elevated
      ? 'normal'
      : perHost < QUEUE_THRESHOLDS.high
        ? 'elevated'
        : 'high';
  return { queue_size: queued, status };
}

interface HypervisorRow extends Record<string, unknown> {
  hypervisor_id: string;
  status: string;
  cloud_provider_instance_id: string | null;
  created_at: number;
  last_heartbeat: number | null;
  weight: number;
  base_load: number;
  last_utilization: number;
}

const DRAINING_SHARE = 1 / 3;

/** Each host's part of the running sessions and its utilization, as of now. */
function utilizationOf(db: Db) {
  const running = (db.prepare(`SELECT count(*) AS n FROM sessions WHERE status = 'running'`).get() as { n: number }).n;
  const takers = db
    .prepare(`SELECT status, weight FROM hypervisors WHERE status IN ('available', 'draining')`)
    .all() as Array<{ status: string; weight: number }>;
  const total = takers.reduce((n, h) => n + h.weight * (h.status === 'draining' ? DRAINING_SHARE : 1), 0);
  return (h: HypervisorRow): number => {
    const round = (x: number) => Math.round(Math.min(100, Math.max(0, x)) * 10) / 10;
    switch (h.status) {
      case 'available':
      case 'draining': {
        const w = h.weight * (h.status === 'draining' ? DRAINING_SHARE : 1);
        const sessions = total > 0 ? (running * w) / total : 0;
        const base = h.status === 'draining' ? 0 : h.base_load;
        return round(base + (sessions / SESSIONS_PER_HYPERVISOR) * 100);
      }
      case 'disconnected':
        return round(h.last_utilization);
      default:
        return 0;
    }
  };
}

/** A live host reports every few seconds; one that stopped reporting keeps its last heartbeat. */
function heartbeatOf(h: HypervisorRow, now: number): number | null {
  if (h.status === 'available' || h.status === 'draining' || h.status === 'restarting') {
    const jitter = [...h.hypervisor_id].reduce((n, c) => n + c.charCodeAt(0), 0) % 15;
    return now - jitter;
  }
  return h.last_heartbeat;
}

export function listHypervisors(
  db: Db,
  now: number,
  status: HypervisorStatusFilter,
  first: number,
  after: string | null | undefined,
) {
  const util = utilizationOf(db);
  return paginate<HypervisorRow, Hypervisor>(db, {
    scope: `hypervisors:${status}`,
    select: 'SELECT * FROM hypervisors',
    where: status === 'all' ? [] : [['status = ?', status]],
    order: [{ col: 'hypervisor_id', dir: 'asc' }],
    first,
    after,
    map: (h) => ({
      hypervisor_id: h.hypervisor_id,
      status: h.status,
      utilization_percentage: util(h),
      cloud_provider_instance_id: h.cloud_provider_instance_id,
      created_at: h.created_at,
      last_heartbeat: heartbeatOf(h, now),
    }),
  });
}

/** Hosts of every status: mostly available, a few draining, restarting, disconnected and terminated. */
const SEED_STATUSES: ReadonlyArray<[string, number]> = [
  ['available', 12],
  ['draining', 2],
  ['restarting', 2],
  ['disconnected', 2],
  ['terminated', 3],
];

export function seedHypervisors(db: Db, rng: Rng, now: number): void {
  const insert = db.prepare(
    `INSERT INTO hypervisors (hypervisor_id, status, cloud_provider_instance_id, created_at, last_heartbeat, weight, base_load, last_utilization)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const [status, n] of SEED_STATUSES) {
    for (let i = 0; i < n; i++) {
      const created = now - rng.int(2, 400) * 86_400;
      const stale =
        status === 'disconnected'
          ? now - rng.int(300, 7_200)
          : status === 'terminated'
            ? now - rng.int(1, 60) * 86_400
            : null;
      insert.run(
        `hv-${rng.hex(12)}`,
        status,
        `i-${rng.hex(17)}`,
        created,
        stale,
        rng.int(70, 130) / 100,
        rng.int(3, 15),
        status === 'disconnected' ? rng.int(20, 90) : 0,
      );
    }
  }
}

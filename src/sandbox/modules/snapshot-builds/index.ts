/**
 * Snapshot builds in the sandbox: months of builds per organization in every status, one active build (the
 * image new sessions use) and some pinned ones, and a simulation that moves builds in flight along
 * pending → running → succeeded/failed, one step per `tickMs`, so the console's live refresh shows real change.
 *
 * Each organization runs at most RUN_SLOTS builds at once; pending builds wait for a slot. A build that succeeds
 * becomes the active one unless the active build is pinned (a pinned build keeps serving new sessions). An
 * organization with nothing in flight for a while gets an automatic build, as a blueprint change would trigger.
 */
import type { SnapshotBuild } from '../../../api/operations/snapshot-builds';
import type { SandboxContext, SandboxModule } from '../../context';
import { paginate } from '../../cursor';
import type { Db } from '../../../node/db';
import { createRng, type Rng } from '../../random';

interface BuildRow extends Record<string, unknown> {
  build_id: string;
  org_id: string;
  status: string;
  trigger: string;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  updated_at: number;
  pinned: number;
  triggered_by_user_id: string;
  is_active: number;
  /** Simulation: ticks left in the current phase (pending: waiting for a slot first; running). */
  sim_ticks_left: number | null;
  /** Simulation: how many ticks the build runs once started. */
  sim_run_ticks: number | null;
  /** Simulation: how a running build ends. */
  sim_outcome: string | null;
}

/** Builds an organization runs at the same time. */
const RUN_SLOTS = 2;
/** Ticks without a build in flight before an organization gets an automatic one. */
const IDLE_TICKS = { min: 600, max: 1_800 };

const toBuild = (r: BuildRow): SnapshotBuild => ({
  build_id: r.build_id,
  status: r.status,
  trigger: r.trigger,
  created_at: r.created_at,
  started_at: r.started_at,
  completed_at: r.completed_at,
  updated_at: r.updated_at,
  pinned: r.pinned === 1,
  triggered_by_user_id: r.triggered_by_user_id,
});

function orgUsers(rng: Rng): string[] {
  return Array.from({ length: 4 }, () => `user-${rng.hex(12)}`);
}

interface InFlightPlan {
  status: 'pending' | 'running';
  ticksLeft: number;
  runTicks: number;
  outcome: 'succeeded' | 'failed';
  trigger: 'manual' | 'auto';
}

/**
 * What each organization has in flight when seeded: a long build and a short one running, a short pending
 * build that starts within seconds and a queue of long ones behind it, so every status stays present for a
 * long while (about half an hour at a 150 ms tick) and the console sees changes right away.
 */
function inFlightPlan(rng: Rng): InFlightPlan[] {
  const long = () => rng.int(3_000, 6_000);
  return [
    { status: 'running', ticksLeft: long(), runTicks: 0, outcome: 'succeeded', trigger: 'manual' },
    {
      status: 'running',
      ticksLeft: rng.int(10, 30),
      runTicks: 0,
      outcome: rng.chance(0.7) ? 'succeeded' : 'failed',
      trigger: 'auto',
    },
    { status: 'pending', ticksLeft: rng.int(2, 5), runTicks: rng.int(15, 40), outcome: 'succeeded', trigger: 'manual' },
    // A queue of long builds behind them keeps pending and running builds around for a long while.
    ...Array.from({ length: 6 }, (_, i) => ({
      status: 'pending' as const,
      ticksLeft: rng.int(2, 5),
      runTicks: long(),
      outcome: i % 3 === 1 ? ('failed' as const) : ('succeeded' as const),
      trigger: i % 2 === 0 ? ('auto' as const) : ('manual' as const),
    })),
  ];
}

function seedOrg(db: Db, rng: Rng, orgId: string, t: number) {
  const insert = db.prepare(
    `INSERT INTO snapshot_builds (build_id, org_id, status, trigger, created_at, started_at, completed_at, updated_at, pinned,
       triggered_by_user_id, is_active, sim_ticks_left, sim_run_ticks, sim_outcome)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)`,
  );
  const users = orgUsers(rng);
  // About six months of finished builds, oldest first.
  let at = t - 185 * 86_400;
  const finished: Array<{ id: string; status: string; completed: number }> = [];
  while (at < t - 2 * 3_600) {
    const status = rng.chance(0.62) ? 'succeeded' : rng.chance(0.55) ? 'failed' : 'cancelled';
    const queued = rng.int(5, 600);
    // Some builds were cancelled before they started.
    const started = status === 'cancelled' && rng.chance(0.4) ? null : at + queued;
    const completed = (started ?? at + queued) + rng.int(3 * 60, 28 * 60);
    const id = `build-${rng.hex(12)}`;
    const pinned = status === 'succeeded' && rng.chance(0.06) ? 1 : 0;
    insert.run(
      id,
      orgId,
      status,
      rng.chance(0.55) ? 'auto' : 'manual',
      at,
      started,
      completed,
      completed,
      pinned,
      rng.pick(users),
      null,
      null,
      null,
    );
    finished.push({ id, status, completed });
    at += rng.int(8 * 3_600, 4 * 86_400);
  }
  // The active build: the newest success, or in some organizations an older pinned one that keeps serving.
  const succeeded = finished.filter((b) => b.status === 'succeeded');
  const pinned = db
    .prepare(`SELECT build_id FROM snapshot_builds WHERE org_id = ? AND pinned = 1 ORDER BY created_at DESC LIMIT 1`)
    .get(orgId) as { build_id: string } | undefined;
  const usePinned = pinned && rng.chance(0.5);
  const activeId = usePinned ? pinned.build_id : succeeded[succeeded.length - 1]?.id;
  if (!usePinned && activeId) {
    // Pinned builds elsewhere stay pinned; the active one is the newest success.
    db.prepare('UPDATE snapshot_builds SET pinned = 0 WHERE org_id = ? AND pinned = 1 AND build_id != ?').run(
      orgId,
      activeId,
    );
    for (const b of rng.sample(succeeded.slice(0, -1), 2)) {
      db.prepare('UPDATE snapshot_builds SET pinned = 1 WHERE build_id = ?').run(b.id);
    }
  }
  if (activeId) db.prepare('UPDATE snapshot_builds SET is_active = 1 WHERE build_id = ?').run(activeId);
  const plan = inFlightPlan(rng);
  plan.forEach((p, i) => {
    const created = t - (plan.length - i) * rng.int(60, 300);
    const started = p.status === 'running' ? created + rng.int(10, 60) : null;
    insert.run(
      `build-${rng.hex(12)}`,
      orgId,
      p.status,
      p.trigger,
      created,
      started,
      null,
      started ?? created,
      0,
      rng.pick(users),
      p.ticksLeft,
      p.runTicks,
      p.outcome,
    );
  });
  db.prepare('INSERT INTO snapshot_build_sim (org_id, idle_ticks, next_auto_at, users) VALUES (?, 0, ?, ?)').run(
    orgId,
    rng.int(IDLE_TICKS.min, IDLE_TICKS.max),
    JSON.stringify(users),
  );
}

/** One simulation step for every organization. Exported for tests. */
export function stepSnapshotBuilds(ctx: SandboxContext, rng: Rng): void {
  const { db } = ctx;
  const now = ctx.now();
  db.transaction(() => {
    // Running builds count down and end.
    db.prepare(
      `UPDATE snapshot_builds SET sim_ticks_left = sim_ticks_left - 1 WHERE status = 'running' AND sim_ticks_left > 0`,
    ).run();
    const ended = db
      .prepare(`SELECT * FROM snapshot_builds WHERE status = 'running' AND coalesce(sim_ticks_left, 0) <= 0`)
      .all() as BuildRow[];
    for (const b of ended) {
      const outcome = b.sim_outcome === 'failed' ? 'failed' : 'succeeded';
      db.prepare(
        `UPDATE snapshot_builds SET status = ?, completed_at = ?, updated_at = ?, sim_ticks_left = NULL WHERE build_id = ?`,
      ).run(outcome, Math.max(now, b.started_at ?? now), now, b.build_id);
      if (outcome === 'succeeded') {
        const active = db
          .prepare('SELECT build_id, pinned FROM snapshot_builds WHERE org_id = ? AND is_active = 1')
          .get(b.org_id) as { build_id: string; pinned: number } | undefined;
        if (!active?.pinned) {
          db.prepare(
            'UPDATE snapshot_builds SET is_active = (build_id = ?) WHERE org_id = ? AND (is_active = 1 OR build_id = ?)',
          ).run(b.build_id, b.org_id, b.build_id);
        }
      }
    }
    // Pending builds start, oldest first, when their organization has a free slot.
    const orgs = db.prepare('SELECT org_id, idle_ticks, next_auto_at, users FROM snapshot_build_sim').all() as Array<{
      org_id: string;
      idle_ticks: number;
      next_auto_at: number;
      users: string;
    }>;
    for (const org of orgs) {
      const running = (
        db
          .prepare(`SELECT count(*) AS n FROM snapshot_builds WHERE org_id = ? AND status = 'running'`)
          .get(org.org_id) as { n: number }
      ).n;
      const pending = db
        .prepare(`SELECT * FROM snapshot_builds WHERE org_id = ? AND status = 'pending' ORDER BY created_at, build_id`)
        .all(org.org_id) as BuildRow[];
      let free = RUN_SLOTS - running;
      for (const p of pending) {
        if (free <= 0) break;
        free--;
        const left = (p.sim_ticks_left ?? 0) - 1;
        if (left > 0) {
          db.prepare('UPDATE snapshot_builds SET sim_ticks_left = ? WHERE build_id = ?').run(left, p.build_id);
          continue;
        }
        db.prepare(
          `UPDATE snapshot_builds SET status = 'running', started_at = ?, updated_at = ?, sim_ticks_left = ? WHERE build_id = ?`,
        ).run(now, now, Math.max(1, p.sim_run_ticks ?? 20), p.build_id);
      }
      // Nothing in flight for long enough: an automatic build is queued.
      const inFlight = running + pending.length > 0;
      const idle = inFlight ? 0 : org.idle_ticks + 1;
      if (!inFlight && idle >= org.next_auto_at) {
        const users = JSON.parse(org.users) as string[];
        db.prepare(
          `INSERT INTO snapshot_builds (build_id, org_id, status, trigger, created_at, started_at, completed_at, updated_at, pinned,
             triggered_by_user_id, is_active, sim_ticks_left, sim_run_ticks, sim_outcome)
           VALUES (?, ?, 'pending', 'auto', ?, NULL, NULL, ?, 0, ?, 0, ?, ?, ?)`,
        ).run(
          ctx.newId('build-'),
          org.org_id,
          now,
          now,
          users.length ? rng.pick(users) : 'user-unknown',
          rng.int(3, 10),
          rng.int(20, 80),
          rng.chance(0.8) ? 'succeeded' : 'failed',
        );
        db.prepare('UPDATE snapshot_build_sim SET idle_ticks = 0, next_auto_at = ? WHERE org_id = ?').run(
          rng.int(IDLE_TICKS.min, IDLE_TICKS.max),
          org.org_id,
        );
      } else if (idle !== org.idle_ticks) {
        db.prepare('UPDATE snapshot_build_sim SET idle_ticks = ? WHERE org_id = ?').run(idle, org.org_id);
      }
    }
  })();
}

export const snapshotBuildsModule: SandboxModule = {
  name: 'snapshot-builds',
  migrations: [
    {
      id: 'snapshot-builds-001-create',
      sql: `CREATE TABLE snapshot_builds (
        build_id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL,
        status TEXT NOT NULL,
        trigger TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        completed_at INTEGER,
        updated_at INTEGER NOT NULL,
        pinned INTEGER NOT NULL DEFAULT 0,
        triggered_by_user_id TEXT NOT NULL,
        is_active INTEGER NOT NULL DEFAULT 0,
        sim_ticks_left INTEGER,
        sim_run_ticks INTEGER,
        sim_outcome TEXT
      );
      CREATE INDEX snapshot_builds_org_created ON snapshot_builds (org_id, created_at, build_id);
      CREATE INDEX snapshot_builds_org_status ON snapshot_builds (org_id, status, created_at, build_id);
      CREATE TABLE snapshot_build_sim (
        org_id TEXT PRIMARY KEY,
        idle_ticks INTEGER NOT NULL,
        next_auto_at INTEGER NOT NULL,
        users TEXT NOT NULL
      );`,
    },
  ],
  seed({ db, rng, now, orgIds }) {
    const t = now();
    for (const orgId of orgIds()) seedOrg(db, rng, orgId, t);
  },
  handlers: {
    'snapshotBuilds.list': ({ params, query }, { db }) => {
      const where: Array<[string, ...(string | number)[]]> = [['org_id = ?', params.org_id]];
      if (query.status) where.push(['status = ?', query.status]);
      if (query.active === true) where.push(['is_active = 1']);
      if (query.active === false) where.push(['is_active = 0']);
      return paginate<BuildRow, SnapshotBuild>(db, {
        scope: `snapshot-builds:${params.org_id}`,
        select: 'SELECT * FROM snapshot_builds',
        where,
        order: [
          { col: 'created_at', dir: 'desc' },
          { col: 'build_id', dir: 'desc' },
        ],
        first: query.first,
        after: query.after,
        map: toBuild,
      });
    },
  },
  start(ctx) {
    const rng = createRng(Date.now() >>> 0);
    const timer = setInterval(() => {
      try {
        stepSnapshotBuilds(ctx, rng);
      } catch (err) {
        // The store may be closing; a failed step is retried on the next tick.
        if (ctx.db.open) console.error('[sandbox] snapshot build simulation step failed:', err);
      }
    }, ctx.tickMs);
    timer.unref?.();
    return () => clearInterval(timer);
  },
};

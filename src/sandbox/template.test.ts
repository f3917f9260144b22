/**
 * In-memory sandboxes started close together (the API tests start many) share one seeding: the next one is a
 * copy of the freshly seeded store, with the same rows, and is independent of it. A sandbox with its own clock
 * seeds on its own, relative to that clock, and one with another tick on its own, in its ticks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './index';

const open: Sandbox[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
const start = (nowMs?: () => number, tickMs?: number) => {
  const s = createSandbox({ dbPath: ':memory:', nowMs, tickMs });
  open.push(s);
  return s;
};
const rows = (s: Sandbox, table: string) => s.db.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
const ids = (s: Sandbox, table: string, key: string) =>
  (s.db.prepare(`SELECT ${key} AS id FROM ${table} ORDER BY ${key}`).all() as Array<{ id: string }>).map((r) => r.id);

describe('seeding in-memory sandboxes', () => {
  it('starts the next sandbox from a copy of the seeded store: same rows, independent writes', () => {
    const a = start();
    const b = start();
    // Two seedings differ (random ids and secrets' nonces, times in milliseconds); a copy does not.
    for (const table of ['audit_logs', 'sessions', 'secrets', 'schedule_runs']) {
      expect(rows(b, table), table).toEqual(rows(a, table));
    }
    expect(ids(b, 'sessions', 'session_id').length).toBeGreaterThan(100);

    a.db.prepare('DELETE FROM audit_logs').run();
    expect(ids(a, 'audit_logs', 'audit_log_id')).toEqual([]);
    expect(ids(b, 'audit_logs', 'audit_log_id').length).toBeGreaterThan(1000);
    // The copy enforces foreign keys as a fresh store does.
    expect(b.db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('seeds a sandbox with its own clock relative to that clock', () => {
    start();
    const yearAgoMs = Date.now() - 365 * 86_400_000;
    const past = start(() => yearAgoMs);
    const newest = past.db.prepare('SELECT max(created_at) AS t FROM audit_logs').get() as { t: number };
    expect(newest.t).toBeLessThanOrEqual(Math.floor(yearAgoMs / 1000));
  });

  it('seeds a sandbox with another tick on its own: its live sessions are planned in its own ticks', () => {
    const fast = start(undefined, 40);
    const slow = start(undefined, 600_000);
    const nextStep = (s: Sandbox) =>
      (s.db.prepare('SELECT min(sim_next_ms) AS t FROM sessions').get() as { t: number }).t - Date.now();
    expect(nextStep(fast)).toBeLessThan(60_000);
    // A copy of the fast store would move its queue within seconds, under a tick of ten minutes.
    expect(nextStep(slow)).toBeGreaterThan(60_000);
  });
});

/**
 * Capacity samples on both stores: an interval is sampled once however many replicas try (two stores on one
 * PostgreSQL database), a failed read leaves a row that says why, old samples go, and a long window is thinned
 * evenly on whole intervals. The API is a counting stand-in: these tests are about the console's side.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapacitySamplesQuery } from '../../../api/console/capacity-samples';
import { newTestDatabase } from '../../../test/pg-database';
import { openPostgresConsoleStore, openSqliteConsoleStore, type ConsoleStore } from '../storage/console-store';
import { UpstreamProblem, type UpstreamClient } from '../upstream-client';
import { readSamples } from '.';
import { createCapacitySampler, slotOf } from './sampler';

let pgUrl: string;
const opened: ConsoleStore[] = [];
beforeAll(async () => {
  pgUrl = await newTestDatabase('capacity');
}, 90_000);
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

const HYPERVISORS = [
  { hypervisor_id: 'hv-1', status: 'available', utilization_percentage: 40 },
  { hypervisor_id: 'hv-2', status: 'available', utilization_percentage: 80.25 },
  { hypervisor_id: 'hv-3', status: 'draining', utilization_percentage: 10 },
  { hypervisor_id: 'hv-4', status: 'terminated', utilization_percentage: 0 },
];

function fakeUpstream(fail?: UpstreamProblem): UpstreamClient & { reads: number } {
  const api = {
    reads: 0,
    async call(id: string) {
      api.reads++;
      if (fail) throw fail;
      if (id !== 'queue.get') throw new Error(`unexpected ${id}`);
      return { queue_size: 7, status: 'elevated' };
    },
    async all(id: string, args?: { query?: { status?: string } }) {
      if (fail) throw fail;
      if (id !== 'hypervisors.list' || args?.query?.status !== 'all') throw new Error(`unexpected ${id}`);
      return HYPERVISORS;
    },
  };
  return api as unknown as UpstreamClient & { reads: number };
}

const INTERVAL = 60;
let clock = 1_800_000_000;

const kinds = {
  sqlite: async () => openSqliteConsoleStore(':memory:'),
  postgres: async () => {
    const s = await openPostgresConsoleStore(pgUrl);
    await s.postgres!.query('TRUNCATE capacity_samples');
    return s;
  },
};

describe.each(Object.entries(kinds))('capacity samples on %s', (_kind, open) => {
  it('samples an interval once, with the figures of both reads; a failed read is a row saying why', async () => {
    const store = await open();
    opened.push(store);
    const api = fakeUpstream();
    const sampler = createCapacitySampler({
      store: store.capacitySamples,
      upstream: api,
      intervalS: INTERVAL,
      retentionHours: 1,
      clock: () => clock,
    });
    expect(await sampler.runOnce()).toBe('sampled');
    expect(await sampler.runOnce()).toBe('taken');
    expect(api.reads).toBe(1);

    clock += INTERVAL;
    const refused = createCapacitySampler({
      store: store.capacitySamples,
      upstream: fakeUpstream(
        new UpstreamProblem(403, {
          type: 'about:blank',
          status: 403,
          title: 'Forbidden',
          detail: 'Missing ViewAccountMetrics',
        }),
      ),
      intervalS: INTERVAL,
      retentionHours: 1,
      clock: () => clock,
    });
    expect(await refused.runOnce()).toBe('failed');

    const answer = await readSamples(store.capacitySamples, INTERVAL, 1, clock);
    expect(answer.samples).toHaveLength(2);
    expect(answer.samples[0]).toMatchObject({
      sampled_at: slotOf(clock - INTERVAL, INTERVAL),
      queue_size: 7,
      queue_status: 'elevated',
      hypervisors_total: 4,
      hypervisors_by_status: { available: 2, draining: 1, terminated: 1 },
      utilization_avg: 60.1,
      utilization_max: 80.3,
      error: null,
    });
    expect(answer.samples[1]).toMatchObject({ queue_size: null, taken_at: null });
    expect(answer.samples[1]!.error).toMatch(/may not read capacity \(403\): Missing ViewAccountMetrics/);

    // Two hours later the retention (1 h) has removed both.
    clock += 2 * 3_600;
    expect(
      await createCapacitySampler({
        store: store.capacitySamples,
        upstream: api,
        intervalS: INTERVAL,
        retentionHours: 1,
        clock: () => clock,
      }).runOnce(),
    ).toBe('sampled');
    expect((await readSamples(store.capacitySamples, INTERVAL, 24, clock)).samples).toHaveLength(1);
  });
});

describe('replicas and long windows', () => {
  it('two replicas on one PostgreSQL store sample each interval once between them', async () => {
    const [a, b] = await Promise.all([kinds.postgres(), openPostgresConsoleStore(pgUrl)]);
    opened.push(a, b);
    const apiA = fakeUpstream();
    const apiB = fakeUpstream();
    const at = slotOf(clock + 10 * INTERVAL, INTERVAL) + 5;
    const make = (s: ConsoleStore, api: UpstreamClient) =>
      createCapacitySampler({
        store: s.capacitySamples,
        upstream: api,
        intervalS: INTERVAL,
        retentionHours: 24,
        clock: () => at,
      });
    const outcomes = await Promise.all([make(a, apiA).runOnce(), make(b, apiB).runOnce()]);
    expect(outcomes.sort()).toEqual(['sampled', 'taken']);
    expect(apiA.reads + apiB.reads).toBe(1);
    expect((await readSamples(b.capacitySamples, INTERVAL, 1, at)).samples.map((s) => s.sampled_at)).toEqual([at - 5]);
  });

  it('thins a long window evenly and bounds the hours asked for', async () => {
    const store = await kinds.sqlite();
    opened.push(store);
    const s = store.capacitySamples;
    const start = slotOf(clock, 10);
    for (let i = 0; i < 4_500; i++) {
      await s.claim(start + i * 10, start);
      await s.complete(start + i * 10, {
        taken_at: start,
        queue_size: i,
        queue_status: 'normal',
        hypervisors_total: 1,
        hypervisors_by_status: { available: 1 },
        utilization_avg: 1,
        utilization_max: 1,
        error: null,
      });
    }
    const now = start + 4_500 * 10;
    const answer = await readSamples(s, 10, 24, now);
    expect(answer.thinned).toBe(true);
    expect(answer.samples.length).toBeLessThanOrEqual(2_000);
    expect(answer.samples.length).toBeGreaterThan(1_400);
    const gaps = new Set(answer.samples.slice(1).map((x, i) => x.sampled_at - answer.samples[i]!.sampled_at));
    expect([...gaps]).toEqual([30]);

    expect((await readSamples(s, 10, CapacitySamplesQuery.parse({ hours: '1' }).hours, now)).samples).toHaveLength(360);
    const bad = CapacitySamplesQuery.safeParse({ hours: '721' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/Hours must be an integer from 1 to 720/);
  });
});

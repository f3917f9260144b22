/**
 * `/console/capacity/samples`: the queue and the hypervisors over time, as the console sampled them. The sampler
 * starts here, with the console app (CAPACITY_SAMPLE_INTERVAL_S; 0 turns it off): its timer is unref'd and stops
 * by itself once the store is closed.
 */
import {
  CAPACITY_SAMPLE_MAX_HOURS,
  CAPACITY_SAMPLE_MAX_POINTS,
  type CapacitySamples,
} from '../../../api/console/capacity-samples';
import type { Config } from '../../config';
import type { ConsoleHandlers } from '../mount';
import type { UpstreamClient } from '../upstream-client';
import { createCapacitySampler } from './sampler';
import type { CapacitySampleStore } from './store';

/** Every sample is kept this long (as long as the longest window one read may ask for). */
export const CAPACITY_SAMPLE_RETENTION_HOURS = CAPACITY_SAMPLE_MAX_HOURS;

export interface CapacitySampleDeps {
  config: Pick<Config, 'capacitySampleIntervalS'>;
  store: CapacitySampleStore;
  upstream: UpstreamClient;
  /** True once the console's store is closed (the sampler stops). */
  closed: () => boolean;
  clock?: () => number;
  /** Tests take samples themselves. */
  sampler?: false;
}

/** Reads the samples of the last `hours`, thinned evenly (on whole intervals) past the answer's limit. */
export async function readSamples(
  store: CapacitySampleStore,
  intervalS: number,
  hours: number,
  now: number,
): Promise<CapacitySamples> {
  const since = now - hours * 3_600;
  const count = await store.count(since);
  const k = Math.ceil(count / CAPACITY_SAMPLE_MAX_POINTS);
  const thinned = k > 1 && intervalS > 0;
  const samples = await store.list(since, CAPACITY_SAMPLE_MAX_POINTS, thinned ? k * intervalS : 1);
  return { interval_s: intervalS, retention_hours: CAPACITY_SAMPLE_RETENTION_HOURS, samples, thinned };
}

export function capacitySampleHandlers(deps: CapacitySampleDeps): ConsoleHandlers {
  const intervalS = deps.config.capacitySampleIntervalS ?? 0;
  const clock = deps.clock ?? (() => Math.floor(Date.now() / 1000));
  if (intervalS > 0 && deps.sampler !== false) {
    createCapacitySampler({
      store: deps.store,
      upstream: deps.upstream,
      intervalS,
      retentionHours: CAPACITY_SAMPLE_RETENTION_HOURS,
      clock,
      closed: deps.closed,
      firstDelayMs: Math.min(15_000, intervalS * 1000),
    }).start();
  }
  return {
    'console.capacity.samples.list': ({ query }) => readSamples(deps.store, intervalS, query.hours, clock()),
  };
}

/**
 * Capacity over time (`/console/capacity/samples`): the console server reads the queue and the hypervisors on a
 * schedule and keeps one sample per interval in its store (SQLite, or PostgreSQL shared by replicas, where one
 * replica takes each interval's sample). The API itself answers only "now"; the trend is the console's own.
 */
import { z } from 'zod';
import { queryInt } from '../conventions';
import { defineConsoleOperations } from './define';

/** The longest window one read may ask for (the store keeps this much too). */
export const CAPACITY_SAMPLE_MAX_HOURS = 720;
/** At most this many samples in one answer: a longer window is thinned evenly, keeping its first and last. */
export const CAPACITY_SAMPLE_MAX_POINTS = 2_000;

export const CapacitySample = z.looseObject({
  /** The start of the interval this sample stands for (Unix seconds). */
  sampled_at: z.number().int(),
  /** When the reads finished; null when they failed. */
  taken_at: z.number().int().nullable(),
  queue_size: z.number().int().nullable(),
  /** `normal`, `elevated` or `high` as the API said; another value as it came. */
  queue_status: z.string().nullable(),
  /** Every hypervisor the API listed (status `all`). */
  hypervisors_total: z.number().int().nullable(),
  /** How many in each status. */
  hypervisors_by_status: z.record(z.string(), z.number().int()).nullable(),
  /** Mean and highest utilization (%) of the available hypervisors; null when none is available. */
  utilization_avg: z.number().nullable(),
  utilization_max: z.number().nullable(),
  /** Why this interval has no figures (a refused or failed read), in words; null for a sample. */
  error: z.string().nullable(),
});
export type CapacitySample = z.infer<typeof CapacitySample>;

export const CapacitySamples = z.looseObject({
  /** Seconds between samples (CAPACITY_SAMPLE_INTERVAL_S); 0: sampling is off. */
  interval_s: z.number().int(),
  /** How long samples are kept, in hours. */
  retention_hours: z.number().int(),
  /** Oldest first, within the asked window. */
  samples: z.array(CapacitySample).max(CAPACITY_SAMPLE_MAX_POINTS),
  /** True when the window held more samples than one answer carries and was thinned. */
  thinned: z.boolean(),
});
export type CapacitySamples = z.infer<typeof CapacitySamples>;

export const CapacitySamplesQuery = z.object({
  hours: queryInt({ min: 1, max: CAPACITY_SAMPLE_MAX_HOURS, name: 'Hours' }).default(24),
});
export type CapacitySamplesQuery = z.input<typeof CapacitySamplesQuery>;

export const consoleCapacitySampleOperations = defineConsoleOperations({
  'console.capacity.samples.list': {
    id: 'console.capacity.samples.list',
    method: 'GET',
    permission: null,
    path: '/console/capacity/samples',
    summary: 'The queue and the hypervisors as the console sampled them over the last hours',
    query: CapacitySamplesQuery,
    response: CapacitySamples,
  },
});

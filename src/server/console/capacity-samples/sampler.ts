/**
 * The capacity sampler: every interval the console server reads the queue and every hypervisor from the API and
 * keeps one sample in its store. Intervals are aligned to the clock (a sample stands for the interval starting
 * at a multiple of the interval), so replicas sharing a PostgreSQL store aim at the same interval and the store's
 * claim lets exactly one of them read the API for it.
 *
 * Bounded: the reads have the upstream client's limits (answer size, pages, items, time) and a deadline of their
 * own; the store keeps `retentionHours` and no more.
 */
import type { SampleFigures, CapacitySampleStore } from './store';
import { UpstreamProblem, type UpstreamClient } from '../upstream-client';
import type { Hypervisor } from '../../../api/operations/capacity';

export interface SamplerOptions {
  store: CapacitySampleStore;
  upstream: UpstreamClient;
  /** Seconds between samples. */
  intervalS: number;
  retentionHours: number;
  /** Unix seconds (tests move it). */
  clock?: () => number;
  /** The first sample is taken this long after start (then one per interval, on its boundary). */
  firstDelayMs?: number;
  /** Longest the reads of one sample may take. */
  deadlineMs?: number;
  /** Answers true once the store is closed: the sampler then stops by itself. */
  closed?: () => boolean;
  log?: (line: string) => void;
}

export type SampleOutcome = 'sampled' | 'failed' | 'taken';

export interface CapacitySampler {
  /** Samples the current interval unless another replica (or an earlier run) already did. */
  runOnce(): Promise<SampleOutcome>;
  start(): void;
  stop(): void;
}

/** Most hypervisors one sample reads (the upstream client's item limit applies too). */
export const MAX_SAMPLED_HYPERVISORS = 10_000;

/** The start of the interval holding `t`. */
export const slotOf = (t: number, intervalS: number) => Math.floor(t / intervalS) * intervalS;

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The figures of one sample from the two answers. */
export function figuresOf(
  queue: { queue_size: number; status: string },
  hypervisors: readonly Hypervisor[],
  takenAt: number,
): SampleFigures {
  const byStatus: Record<string, number> = {};
  for (const h of hypervisors) byStatus[h.status] = (byStatus[h.status] ?? 0) + 1;
  const available = hypervisors.filter((h) => h.status === 'available').map((h) => h.utilization_percentage);
  return {
    taken_at: takenAt,
    queue_size: queue.queue_size,
    queue_status: queue.status,
    hypervisors_total: hypervisors.length,
    hypervisors_by_status: byStatus,
    utilization_avg: available.length ? round1(available.reduce((a, b) => a + b, 0) / available.length) : null,
    utilization_max: available.length ? round1(Math.max(...available)) : null,
    error: null,
  };
}

/** Why a read failed, in words (the upstream client has already redacted what the API said). */
export function failureOf(err: unknown): string {
  if (err instanceof UpstreamProblem) {
    if (err.status === 403) {
      return `The console's credential may not read capacity (403): ${err.body.detail ?? err.body.title}`;
    }
    return `The API answered ${err.status}: ${err.body.detail ?? err.body.title}`;
  }
  if (err instanceof Error && err.name === 'TimeoutError') return 'The API did not answer in time';
  return `The read failed: ${err instanceof Error ? err.message : 'unknown error'}`;
}

export function createCapacitySampler(opts: SamplerOptions): CapacitySampler {
  const clock = opts.clock ?? (() => Math.floor(Date.now() / 1000));
  const log = opts.log ?? ((line: string) => console.error(line));
  const deadlineMs = opts.deadlineMs ?? Math.min(60_000, opts.intervalS * 1000);
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let running: Promise<SampleOutcome> | undefined;

  async function sample(): Promise<SampleOutcome> {
    const now = clock();
    const slot = slotOf(now, opts.intervalS);
    if (!(await opts.store.claim(slot, now))) return 'taken';
    const signal = AbortSignal.timeout(deadlineMs);
    let figures: SampleFigures;
    try {
      const [queue, hypervisors] = await Promise.all([
        opts.upstream.call('queue.get', { signal }),
        opts.upstream.all('hypervisors.list', {
          query: { status: 'all', first: 200 },
          signal,
          maxItems: MAX_SAMPLED_HYPERVISORS,
        }) as Promise<Hypervisor[]>,
      ]);
      figures = figuresOf(queue, hypervisors, clock());
    } catch (err) {
      figures = {
        taken_at: null,
        queue_size: null,
        queue_status: null,
        hypervisors_total: null,
        hypervisors_by_status: null,
        utilization_avg: null,
        utilization_max: null,
        error: failureOf(err),
      };
    }
    await opts.store.complete(slot, figures);
    await opts.store.prune(now - opts.retentionHours * 3_600);
    return figures.error ? 'failed' : 'sampled';
  }

  const runOnce = () => {
    // One at a time in this replica: a run asked for during another waits for it.
    const next = (running ?? Promise.resolve<SampleOutcome>('taken')).catch(() => 'failed' as const).then(sample);
    running = next;
    return next;
  };

  function schedule(delayMs: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      if (opts.closed?.()) {
        stopped = true;
        return;
      }
      void runOnce()
        .catch((err: unknown) => {
          if (!opts.closed?.()) {
            log(`[console] capacity sample failed: ${err instanceof Error ? err.message : 'unknown error'}`);
          }
        })
        .finally(() => {
          // On the next interval's boundary, a second in (so every replica's clock is past it).
          const now = clock();
          const next = slotOf(now, opts.intervalS) + opts.intervalS;
          schedule(Math.max(1_000, (next - now) * 1000 + 1_000));
        });
    }, delayMs);
    // Never what keeps the process alive.
    timer.unref();
  }

  return {
    runOnce,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(opts.firstDelayMs ?? 15_000);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

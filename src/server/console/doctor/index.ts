/**
 * The console's doctor endpoints (`/console/doctor`): start a run against the console's own upstream (the
 * configured API, or the embedded sandbox), follow its progress, read the last report. One run at a time per
 * console process; the report is kept in the console's store (its settings), so every replica and the shell's
 * notice read the same last report. The credential never appears in a report or an error.
 */
import type { DoctorProgress, DoctorReport, DoctorState, DoctorSummary } from '../../../api/console/doctor';
import { DoctorReport as DoctorReportSchema } from '../../../api/console/doctor';
import type { Config } from '../../config';
import type { Redactor } from '../../redact';
import type { ConsoleHandlers } from '../mount';
import type { SettingsStore } from '../storage/settings';
import { runDoctor, type DoctorOptions } from './engine';

/** The settings key of the last report. */
export const LAST_REPORT_KEY = 'doctor.last_report';
/** Longest a run may take before it is stopped (paced requests and 429 waits included). */
const RUN_DEADLINE_MS = 10 * 60_000;

export interface DoctorDeps {
  config: Pick<Config, 'mode' | 'upstreamTimeoutMs' | 'accessToken'>;
  /** Where the proxy sends API calls. */
  upstreamUrl: string;
  /** The credential the proxy adds; undefined only when the console was started without one. */
  apiKey: string | undefined;
  settings: SettingsStore;
  redactor: Redactor;
  /** Overrides for tests (pace, waits, the operation table). */
  runOptions?: Partial<DoctorOptions>;
}

export function doctorHandlers(deps: DoctorDeps): ConsoleHandlers {
  let running: { progress: DoctorProgress; promise: Promise<void> } | null = null;
  let lastError: string | null = null;

  async function lastReport(): Promise<DoctorReport | null> {
    const stored = await deps.settings.get(LAST_REPORT_KEY);
    if (stored === undefined) return null;
    // A report written by an older version that no longer parses counts as none.
    const parsed = DoctorReportSchema.safeParse(stored);
    return parsed.success ? parsed.data : null;
  }

  async function state(): Promise<DoctorState> {
    return { running: running ? { ...running.progress } : null, report: await lastReport(), error: lastError };
  }

  function start(): void {
    const progress: DoctorProgress = {
      started_at: Math.floor(Date.now() / 1000),
      done: 0,
      total: 0,
      current: null,
    };
    const promise = (async () => {
      try {
        const report = await runDoctor({
          baseUrl: deps.upstreamUrl,
          apiKey: deps.apiKey,
          mode: deps.config.mode,
          timeoutMs: Math.min(deps.config.upstreamTimeoutMs, 15_000),
          secrets: [deps.config.accessToken],
          signal: AbortSignal.timeout(RUN_DEADLINE_MS),
          onProgress: (p) => Object.assign(progress, p),
          ...deps.runOptions,
        });
        await deps.settings.set(LAST_REPORT_KEY, report);
        lastError = null;
      } catch (err) {
        // Kind and message only, redacted: never a stack or a body.
        const message = err instanceof Error ? err.message : String(err);
        lastError = deps.redactor.redact(`The doctor could not finish: ${message}`).slice(0, 500);
      } finally {
        running = null;
      }
    })();
    running = { progress, promise };
  }

  return {
    'console.doctor.get': () => state(),
    'console.doctor.runs.create': async () => {
      if (!running) start();
      return state();
    },
    'console.doctor.summary.get': async (): Promise<DoctorSummary> => {
      const report = await lastReport();
      const refused = report ? report.operations.items.filter((i) => i.outcome === 'refused') : [];
      return {
        running: running !== null,
        ran_at: report?.started_at ?? null,
        credential_works: report ? report.credential_works : null,
        verdict: report?.verdict ?? null,
        refused: refused.slice(0, 50).map((i) => ({ id: i.id, permission: i.refused_permission })),
        refused_count: refused.length,
      };
    },
  };
}

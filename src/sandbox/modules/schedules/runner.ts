/**
 * Schedules that run. On every simulation pass (one per `SANDBOX_TICK_MS`; the clock is the sandbox's, i.e.
 * wall time unless a test sets it), each enabled schedule whose `next_run_at` has come starts a session with its
 * prompt, playbook and tags (`createSession`, origin `automation`, attributed to the schedule's creator, the
 * audit entry naming the schedule), records the run and computes its next time with cron-parser in UTC; a
 * one-time schedule disables itself. When a started session ends, its run is settled: `error` counts a failure
 * (`consecutive_failures` grows, `last_error_*` set), `exit` resets the count, `suspended` leaves it as it is.
 * A session that cannot be started (its playbook was deleted, a tag is no longer allowed) is a failure too.
 *
 * Nothing runs in a revoked name: each pass first pauses every enabled schedule whose creator or run-as principal
 * is deleted, expired or lost the permissions `SCHEDULE_RUNS_AS` names (`enabled` 0, `paused_reason`, an audit
 * entry by no principal), and a due schedule is checked again just before it starts. A schedule starts at most
 * `SCHEDULE_CAPS.sessionsPerHour` sessions in any sliding hour; a run beyond that is recorded as not started.
 */
import { CronExpressionParser } from 'cron-parser';
import { SCHEDULE_CAPS } from '../../../api/operations/schedules';
import { HttpProblem } from '../../../node/problem-writer';
import type { SandboxContext } from '../../context';
import { usablePlaybook } from '../playbooks';
import { createSession, type CreateSessionInput } from '../sessions/create';
import { advanceDue } from '../sessions/simulation';
import { kindOf, scheduleRevocation } from './standing';

/** A recurring run this late (the sandbox was stopped) is skipped rather than started long after its time. */
export const MISSED_RUN_GRACE_S = 600;

export interface ScheduleRow extends Record<string, unknown> {
  scheduled_session_id: string;
  org_id: string;
  name: string;
  prompt: string;
  frequency: string | null;
  schedule_type: 'recurring' | 'one_time';
  scheduled_at: number | null;
  enabled: number;
  notify_on: string;
  playbook_id: string | null;
  tags: string | null;
  bypass_approval: number;
  created_by: string;
  created_by_name: string;
  last_edited_by: string | null;
  created_at: number;
  updated_at: number;
  last_executed_at: number | null;
  last_error_at: number | null;
  last_error_message: string | null;
  consecutive_failures: number;
  next_run_at: number | null;
  last_session_id: string | null;
  deleted_at: number | null;
  agent: string;
  interval_count: number;
  platform: string | null;
  slack_channel_id: string | null;
  slack_team_id: string | null;
  target_devin_id: string | null;
  create_as_user_id: string | null;
  run_as_user_id: string | null;
  paused_reason: string | null;
  paused_at: number | null;
}

/** The first run of `frequency` strictly after `afterS` (Unix seconds, UTC); null when it never runs. */
export function nextCronRun(frequency: string, afterS: number): number | null {
  try {
    const it = CronExpressionParser.parse(frequency, { tz: 'UTC', currentDate: new Date(afterS * 1000) });
    return Math.floor(it.next().getTime() / 1000);
  } catch {
    return null;
  }
}

/** The runs of `frequency` at or before `beforeS`, latest first (for the seed's history). */
export function previousCronRuns(frequency: string, beforeS: number, count: number): number[] {
  try {
    const it = CronExpressionParser.parse(frequency, { tz: 'UTC', currentDate: new Date(beforeS * 1000) });
    return Array.from({ length: count }, () => Math.floor(it.prev().getTime() / 1000));
  } catch {
    return [];
  }
}

/** When an enabled schedule runs next, from `now`: the cron's next time, or the one-time date. */
export function nextRunOf(
  row: Pick<ScheduleRow, 'schedule_type' | 'frequency' | 'scheduled_at' | 'enabled'>,
  now: number,
): number | null {
  if (!row.enabled) return null;
  if (row.schedule_type === 'one_time') return row.scheduled_at;
  return row.frequency ? nextCronRun(row.frequency, now) : null;
}

function recordFailure(ctx: SandboxContext, scheduleId: string, message: string, now: number): void {
  ctx.db
    .prepare(
      `UPDATE schedules SET consecutive_failures = consecutive_failures + 1, last_error_at = ?, last_error_message = ?
       WHERE scheduled_session_id = ?`,
    )
    .run(now, message.slice(0, 2_000), scheduleId);
}

/**
 * Pauses a schedule that may no longer run, with the reason. Audited by no principal: the revoked one did
 * nothing, and nobody else acted.
 */
function pauseSchedule(ctx: SandboxContext, row: ScheduleRow, reason: string, now: number): void {
  ctx.db
    .prepare(
      `UPDATE schedules SET enabled = 0, next_run_at = NULL, paused_reason = ?, paused_at = ?
       WHERE scheduled_session_id = ?`,
    )
    .run(reason, now, row.scheduled_session_id);
  ctx.audit({
    action: 'pause_schedule',
    org_id: row.org_id,
    principal: null,
    data: { scheduled_session_id: row.scheduled_session_id, schedule_name: row.name, reason },
  });
}

/**
 * Pauses every enabled schedule whose principals no longer stand. Principals are few and shared by many
 * schedules: each (organization, creator, run-as) is judged once a pass.
 */
function pauseRevoked(ctx: SandboxContext, now: number): void {
  const rows = ctx.db
    .prepare(`SELECT * FROM schedules WHERE deleted_at IS NULL AND enabled = 1`)
    .all() as ScheduleRow[];
  const judged = new Map<string, string | null>();
  for (const row of rows) {
    const key = `${row.org_id}\n${row.created_by}\n${row.run_as_user_id ?? row.create_as_user_id ?? ''}`;
    if (!judged.has(key)) judged.set(key, scheduleRevocation(ctx.db, row, now));
    const reason = judged.get(key);
    if (reason) pauseSchedule(ctx, row, reason, now);
  }
}

/** Sessions this schedule started in the hour up to `now`. */
function startedLastHour(ctx: SandboxContext, scheduleId: string, now: number): number {
  return (
    ctx.db
      .prepare(
        `SELECT count(*) AS n FROM schedule_runs WHERE scheduled_session_id = ? AND session_id IS NOT NULL
         AND started_at > ?`,
      )
      .get(scheduleId, now - 3_600) as { n: number }
  ).n;
}

/** In whose name a run starts its session: a run-as service user, else the creator (a run-as user is credited). */
function actorOf(
  ctx: SandboxContext,
  row: ScheduleRow,
): { principal: { service_user_id: string; service_user_name: string }; userId: string | null } {
  const runAs = row.run_as_user_id ?? row.create_as_user_id;
  if (runAs && kindOf(runAs) === 'service_user') {
    const su = ctx.db.prepare('SELECT name FROM service_users WHERE service_user_id = ?').get(runAs) as
      { name: string } | undefined;
    return { principal: { service_user_id: runAs, service_user_name: su?.name ?? runAs }, userId: null };
  }
  return { principal: { service_user_id: row.created_by, service_user_name: row.created_by_name }, userId: runAs };
}

/** Starts one due schedule's session (or records why it could not), then moves its next run on. */
function runSchedule(ctx: SandboxContext, row: ScheduleRow, now: number): void {
  const { db } = ctx;
  const revoked = scheduleRevocation(db, row, now);
  if (revoked) {
    pauseSchedule(ctx, row, revoked, now);
    return;
  }
  const late = row.next_run_at !== null && now - row.next_run_at > MISSED_RUN_GRACE_S;
  if (row.schedule_type === 'recurring' && late) {
    db.prepare('UPDATE schedules SET next_run_at = ? WHERE scheduled_session_id = ?').run(
      row.frequency ? nextCronRun(row.frequency, now) : null,
      row.scheduled_session_id,
    );
    return;
  }
  const runId = ctx.newId('run-');
  const actor = actorOf(ctx, row);
  try {
    if (startedLastHour(ctx, row.scheduled_session_id, now) >= SCHEDULE_CAPS.sessionsPerHour) {
      throw new HttpProblem(
        429,
        `this schedule already started ${SCHEDULE_CAPS.sessionsPerHour} sessions in the past hour, the most one schedule may start`,
      );
    }
    if (row.playbook_id && !usablePlaybook(db, row.playbook_id, row.org_id)) {
      throw new HttpProblem(422, `Playbook ${row.playbook_id} no longer exists; the session was not started`);
    }
    const tags = row.tags ? (JSON.parse(row.tags) as string[]) : [];
    const body: CreateSessionInput = {
      prompt: row.prompt,
      title: row.name,
      playbook_id: row.playbook_id,
      tags: tags.length ? tags : null,
      bypass_approval: row.bypass_approval === 1 ? true : null,
      create_as_user_id: actor.userId,
      resumable: true,
    };
    const session = createSession(ctx, row.org_id, body, actor.principal, {
      origin: 'automation',
      auditData: { scheduled_session_id: row.scheduled_session_id, schedule_name: row.name, run_id: runId },
    });
    db.prepare(
      `INSERT INTO schedule_runs (run_id, scheduled_session_id, org_id, session_id, started_at, outcome)
       VALUES (?, ?, ?, ?, ?, 'running')`,
    ).run(runId, row.scheduled_session_id, row.org_id, session.session_id, now);
    db.prepare('UPDATE schedules SET last_executed_at = ?, last_session_id = ? WHERE scheduled_session_id = ?').run(
      now,
      session.session_id,
      row.scheduled_session_id,
    );
  } catch (err) {
    if (!(err instanceof HttpProblem)) throw err;
    const message = `The session could not be started: ${err.detail}`;
    db.prepare(
      `INSERT INTO schedule_runs (run_id, scheduled_session_id, org_id, session_id, started_at, outcome, settled_at, error_message)
       VALUES (?, ?, ?, NULL, ?, 'start_failed', ?, ?)`,
    ).run(runId, row.scheduled_session_id, row.org_id, now, now, message);
    db.prepare('UPDATE schedules SET last_executed_at = ? WHERE scheduled_session_id = ?').run(
      now,
      row.scheduled_session_id,
    );
    recordFailure(ctx, row.scheduled_session_id, message, now);
    ctx.audit({
      action: 'run_schedule_failed',
      org_id: row.org_id,
      principal: actor.principal,
      data: { scheduled_session_id: row.scheduled_session_id, schedule_name: row.name, run_id: runId, error: message },
    });
  }
  if (row.schedule_type === 'one_time') {
    db.prepare('UPDATE schedules SET enabled = 0, next_run_at = NULL WHERE scheduled_session_id = ?').run(
      row.scheduled_session_id,
    );
  } else {
    db.prepare('UPDATE schedules SET next_run_at = ? WHERE scheduled_session_id = ?').run(
      row.frequency ? nextCronRun(row.frequency, now) : null,
      row.scheduled_session_id,
    );
  }
}

/** Settles the runs whose session has ended: failures counted, a success resets the count. */
function settleRuns(ctx: SandboxContext, now: number): void {
  const { db } = ctx;
  const ended = db
    .prepare(
      `SELECT r.run_id, r.scheduled_session_id, r.session_id, s.status FROM schedule_runs r
       JOIN sessions s ON s.session_id = r.session_id
       WHERE r.outcome = 'running' AND s.status IN ('exit', 'error', 'suspended')
       ORDER BY r.started_at, r.run_id LIMIT 200`,
    )
    .all() as Array<{ run_id: string; scheduled_session_id: string; session_id: string; status: string }>;
  for (const r of ended) {
    if (r.status === 'error') {
      const last = db
        .prepare(
          `SELECT message FROM session_messages WHERE session_id = ? AND source = 'agent' ORDER BY seq DESC LIMIT 1`,
        )
        .get(r.session_id) as { message: string } | undefined;
      const message = `Session ${r.session_id} ended in error${last ? `: ${last.message}` : ''}`;
      db.prepare(
        `UPDATE schedule_runs SET outcome = 'failure', settled_at = ?, error_message = ? WHERE run_id = ?`,
      ).run(now, message, r.run_id);
      recordFailure(ctx, r.scheduled_session_id, message, now);
    } else if (r.status === 'exit') {
      db.prepare(`UPDATE schedule_runs SET outcome = 'success', settled_at = ? WHERE run_id = ?`).run(now, r.run_id);
      db.prepare('UPDATE schedules SET consecutive_failures = 0 WHERE scheduled_session_id = ?').run(
        r.scheduled_session_id,
      );
    } else {
      db.prepare(`UPDATE schedule_runs SET outcome = 'suspended', settled_at = ? WHERE run_id = ?`).run(now, r.run_id);
    }
  }
}

/**
 * One pass: moves the sessions along (so ended runs are seen), starts every schedule that is due and settles
 * the runs whose session ended. Cheap when nothing is due.
 */
export function advanceSchedules(ctx: SandboxContext): void {
  advanceDue(ctx);
  const now = ctx.now();
  ctx.db.transaction(() => pauseRevoked(ctx, now))();
  const due = ctx.db
    .prepare(
      `SELECT * FROM schedules WHERE deleted_at IS NULL AND enabled = 1 AND next_run_at IS NOT NULL AND next_run_at <= ?
       ORDER BY next_run_at, scheduled_session_id LIMIT 50`,
    )
    .all(now) as ScheduleRow[];
  const pending = ctx.db.prepare(`SELECT 1 FROM schedule_runs WHERE outcome = 'running' LIMIT 1`).get();
  if (due.length === 0 && !pending) return;
  ctx.db.transaction(() => {
    for (const row of due) runSchedule(ctx, row, now);
    settleRuns(ctx, now);
  })();
}

/** The background loop: one pass per tick. */
export function startScheduler(ctx: SandboxContext): () => void {
  const timer = setInterval(() => {
    try {
      advanceSchedules(ctx);
    } catch (err) {
      // The store closes before the timer on shutdown; anything else is a defect worth seeing.
      if (!(err instanceof TypeError) && !/not open|closed/i.test(String(err)))
        console.error('[sandbox] schedules:', err);
    }
  }, ctx.tickMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

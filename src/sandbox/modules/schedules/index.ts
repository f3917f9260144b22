/**
 * Schedules in the sandbox: list (first/after, or the vendor's limit/offset), create, get, update (PATCH),
 * delete (soft: the schedule stops and is gone from the API), and the runs of a schedule (an extension), each
 * mutation audited. Timestamps are stored as Unix seconds and answered as ISO 8601 strings, as the vendor's
 * schedules are. The runner (`runner.ts`) starts their sessions on the simulation clock, and pauses those whose
 * principals were revoked (`standing.ts`). An organization holds at most `SCHEDULE_CAPS.perOrganization`.
 */
import {
  SCHEDULE_CAPS,
  SCHEDULE_MESSAGES,
  scheduledAtPastMessage,
  type CreateScheduleBody,
  type Schedule,
  type ScheduleRun,
  type UpdateScheduleBody,
} from '../../../api/operations/schedules';
import type { z } from 'zod';
import type { Db } from '../../../node/db';
import { HttpProblem, notFound, unprocessable } from '../../../node/problem-writer';
import type { Principal, SandboxContext, SandboxModule, SeedContext } from '../../context';
import { encodeCursor, paginate } from '../../cursor';
import { seedActors } from '../members/seed';
import { allowedTagsOf, checkAllowedTags } from '../org-tags';
import { usablePlaybook } from '../playbooks';
import { createSession } from '../sessions/create';
import { AGENT_DONE } from '../sessions/seed-data';
import { addMessage } from '../sessions/store';
import { advanceSchedules, nextCronRun, nextRunOf, previousCronRuns, startScheduler, type ScheduleRow } from './runner';
import { ONE_TIME_SCHEDULES, RECURRING_SCHEDULES, SCHEDULE_ERRORS } from './seed-data';
import { scheduleRevocation, standingProblem } from './standing';

export { advanceSchedules } from './runner';

type CreateBody = z.output<typeof CreateScheduleBody>;
type UpdateBody = z.output<typeof UpdateScheduleBody>;

const iso = (s: number | null): string | null => (s === null ? null : new Date(s * 1000).toISOString());

const SELECT = `SELECT s.*, p.title AS playbook_title FROM schedules s LEFT JOIN playbooks p ON p.playbook_id = s.playbook_id`;

type Row = ScheduleRow & { playbook_title: string | null };

function toSchedule(r: Row): Schedule {
  return {
    scheduled_session_id: r.scheduled_session_id,
    org_id: r.org_id,
    name: r.name,
    prompt: r.prompt,
    playbook: r.playbook_id ? { playbook_id: r.playbook_id, title: r.playbook_title } : null,
    frequency: r.frequency,
    schedule_type: r.schedule_type,
    scheduled_at: iso(r.scheduled_at),
    enabled: r.enabled === 1,
    notify_on: r.notify_on,
    consecutive_failures: r.consecutive_failures,
    tags: r.tags ? (JSON.parse(r.tags) as string[]) : null,
    bypass_approval: r.bypass_approval === 1,
    agent: r.agent,
    interval_count: r.interval_count,
    platform: r.platform,
    slack_channel_id: r.slack_channel_id,
    slack_team_id: r.slack_team_id,
    target_devin_id: r.target_devin_id,
    created_by: r.created_by,
    last_edited_by: r.last_edited_by,
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    last_executed_at: iso(r.last_executed_at),
    last_error_at: iso(r.last_error_at),
    last_error_message: r.last_error_message,
    next_run_at: iso(r.next_run_at),
    last_session_id: r.last_session_id,
    create_as_user_id: r.create_as_user_id,
    run_as_user_id: r.run_as_user_id,
    paused_reason: r.paused_reason,
    paused_at: iso(r.paused_at),
  };
}

function getRow(db: Db, orgId: string, scheduleId: string): Row {
  const row = db
    .prepare(`${SELECT} WHERE s.scheduled_session_id = ? AND s.org_id = ? AND s.deleted_at IS NULL`)
    .get(scheduleId, orgId) as Row | undefined;
  if (!row) throw notFound('Schedule', scheduleId);
  return row;
}

const ORDER = [
  { col: 'created_at', dir: 'desc' },
  { col: 'scheduled_session_id', dir: 'desc' },
] as const;

function listSchedules(
  ctx: SandboxContext,
  orgId: string,
  q: { first: number; after?: string | null; limit?: number; offset?: number },
) {
  advanceSchedules(ctx);
  const scope = `schedules:${orgId}`;
  const select = `SELECT * FROM (${SELECT} WHERE s.org_id = ? AND s.deleted_at IS NULL)`;
  if (q.limit === undefined && q.offset === undefined) {
    return paginate<Row, Schedule>(ctx.db, {
      scope,
      select: `SELECT * FROM (${SELECT}) t`,
      where: [['org_id = ?', orgId], ['deleted_at IS NULL']],
      order: ORDER,
      first: q.first,
      after: q.after,
      map: toSchedule,
    });
  }
  // The vendor reference's style: limit/offset, answered with the same envelope (and a cursor to go on with).
  if (q.after) {
    throw unprocessable([
      { loc: ['query', 'offset'], msg: 'use after (with first) or offset (with limit), not both', type: 'paging' },
    ]);
  }
  const size = q.limit ?? q.first;
  const offset = q.offset ?? 0;
  const rows = ctx.db
    .prepare(`${select} ORDER BY created_at DESC, scheduled_session_id DESC LIMIT ? OFFSET ?`)
    .all(orgId, size + 1, offset) as Row[];
  const total = (ctx.db.prepare(`SELECT count(*) AS n FROM (${select})`).get(orgId) as { n: number }).n;
  const items = rows.slice(0, size);
  const last = items.at(-1);
  const hasNext = rows.length > size;
  return {
    items: items.map(toSchedule),
    end_cursor: hasNext && last ? encodeCursor({ s: scope, k: [last.created_at, last.scheduled_session_id] }) : null,
    has_next_page: hasNext,
    total,
  };
}

/** The checks the contract cannot make: the playbook exists here, tags are allowed, the date is ahead. */
function checkPlaybook(db: Db, orgId: string, playbookId: string | null | undefined): void {
  if (playbookId && !usablePlaybook(db, playbookId, orgId)) {
    throw unprocessable([
      {
        loc: ['body', 'playbook_id'],
        msg: `playbook_id ${playbookId} is not a playbook of this organization or of the enterprise`,
        type: 'not_found',
      },
    ]);
  }
}

const toSeconds = (isoText: string) => Math.floor(Date.parse(isoText) / 1000);

function checkFuture(now: number, at: number | null): void {
  if (at === null || at <= now) {
    throw unprocessable([
      {
        loc: ['body', 'scheduled_at'],
        msg: scheduledAtPastMessage(iso(now) ?? new Date(now * 1000).toISOString()),
        type: 'past',
      },
    ]);
  }
}

function checkRuns(frequency: string, now: number): void {
  if (nextCronRun(frequency, now) === null) {
    throw unprocessable([
      { loc: ['body', 'frequency'], msg: `frequency ${frequency} never matches a date`, type: 'cron' },
    ]);
  }
}

/** A run-as principal (`create_as_user_id`, `run_as_user_id`) must exist and be able to start sessions here. */
function checkRunAs(db: Db, orgId: string, field: string, id: string | null | undefined, now: number): void {
  const problem = id ? standingProblem(db, id, orgId, 'runAs', now) : null;
  if (problem) {
    throw unprocessable([
      { loc: ['body', field], msg: `${field} ${id} cannot run sessions here: ${problem}`, type: 'principal' },
    ]);
  }
}

/** The organization's cap on schedules: a 409 that says what to do. */
function checkCap(db: Db, orgId: string): void {
  const { n } = db
    .prepare('SELECT count(*) AS n FROM schedules WHERE org_id = ? AND deleted_at IS NULL')
    .get(orgId) as { n: number };
  if (n >= SCHEDULE_CAPS.perOrganization) {
    throw new HttpProblem(
      409,
      `Organization ${orgId} already has ${n} schedules, the most one organization may have (${SCHEDULE_CAPS.perOrganization}). Delete one it no longer needs, then create this one.`,
      { title: 'Too many schedules', limit: SCHEDULE_CAPS.perOrganization, count: n },
    );
  }
}

function createSchedule(ctx: SandboxContext, orgId: string, body: CreateBody, principal: Principal): Schedule {
  const { db } = ctx;
  const now = ctx.now();
  checkCap(db, orgId);
  // Its runs start sessions in the creator's name: a creator who could not start one by hand cannot schedule one.
  const creator = standingProblem(db, principal.service_user_id, orgId, 'creator', now);
  if (creator) {
    throw new HttpProblem(403, `A schedule runs sessions in its creator's name, and ${creator}.`, {
      permission: 'UseAgentSessions',
      level: 'organization',
      org_id: orgId,
    });
  }
  checkRunAs(db, orgId, 'create_as_user_id', body.create_as_user_id, now);
  checkPlaybook(db, orgId, body.playbook_id);
  checkAllowedTags(db, orgId, body.tags ?? []);
  const oneTime = body.schedule_type === 'one_time';
  const scheduledAt = oneTime && body.scheduled_at ? toSeconds(body.scheduled_at) : null;
  if (oneTime) checkFuture(now, scheduledAt);
  else checkRuns(body.frequency!, now);
  const id = ctx.newId('sched-');
  const row = {
    schedule_type: body.schedule_type,
    frequency: oneTime ? null : body.frequency!,
    scheduled_at: scheduledAt,
    enabled: body.enabled ? 1 : 0,
  };
  db.prepare(
    `INSERT INTO schedules (scheduled_session_id, org_id, name, prompt, frequency, schedule_type, scheduled_at, enabled,
       notify_on, playbook_id, tags, bypass_approval, created_by, created_by_name, last_edited_by, created_at, updated_at,
       consecutive_failures, next_run_at, agent, interval_count, platform, slack_channel_id, slack_team_id,
       target_devin_id, create_as_user_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    orgId,
    body.name.trim(),
    body.prompt,
    row.frequency,
    row.schedule_type,
    row.scheduled_at,
    row.enabled,
    body.notify_on,
    body.playbook_id ?? null,
    body.tags?.length ? JSON.stringify([...new Set(body.tags)]) : null,
    body.bypass_approval ? 1 : 0,
    principal.service_user_id,
    principal.service_user_name,
    principal.service_user_id,
    now,
    now,
    nextRunOf(row, now),
    body.agent ?? 'agent',
    body.interval_count ?? 1,
    body.platform?.trim() ?? null,
    body.slack_channel_id?.trim() ?? null,
    body.slack_team_id?.trim() ?? null,
    body.target_devin_id?.trim() ?? null,
    body.create_as_user_id ?? null,
  );
  const schedule = toSchedule(getRow(db, orgId, id));
  ctx.audit({
    action: 'create_schedule',
    org_id: orgId,
    principal,
    data: {
      scheduled_session_id: id,
      name: schedule.name,
      schedule_type: schedule.schedule_type,
      frequency: schedule.frequency,
      scheduled_at: schedule.scheduled_at,
      enabled: schedule.enabled,
    },
  });
  return schedule;
}

function updateSchedule(
  ctx: SandboxContext,
  orgId: string,
  scheduleId: string,
  body: UpdateBody,
  principal: Principal,
): Schedule {
  const { db } = ctx;
  const now = ctx.now();
  const current = getRow(db, orgId, scheduleId);
  const given = (k: keyof UpdateBody) => body[k] !== undefined && body[k] !== null;
  // Omitted (or null) fields keep their value, except playbook_id and tags, which null clears.
  const type = body.schedule_type ?? current.schedule_type;
  const frequency = type === 'one_time' ? null : (body.frequency ?? current.frequency);
  const scheduledAt =
    type === 'recurring' ? null : body.scheduled_at ? toSeconds(body.scheduled_at) : current.scheduled_at;
  const enabled = body.enabled ?? current.enabled === 1;
  const playbookId = body.playbook_id === undefined ? current.playbook_id : body.playbook_id;
  const tags =
    body.tags === undefined ? current.tags : body.tags?.length ? JSON.stringify([...new Set(body.tags)]) : null;

  const runAs = body.run_as_user_id === undefined ? current.run_as_user_id : body.run_as_user_id;
  if (body.playbook_id) checkPlaybook(db, orgId, body.playbook_id);
  if (body.tags) checkAllowedTags(db, orgId, body.tags);
  if (body.run_as_user_id) checkRunAs(db, orgId, 'run_as_user_id', body.run_as_user_id, now);
  // A schedule whose principals were revoked stays paused: enabling it would run in a revoked name.
  const revoked = enabled ? scheduleRevocation(db, { ...current, run_as_user_id: runAs }, now) : null;
  if (revoked) {
    throw unprocessable([
      {
        loc: ['body', 'enabled'],
        msg: `it cannot be enabled. ${revoked.replace(/^Paused: i/, 'I')} Create a new schedule instead.`,
        type: 'revoked',
      },
    ]);
  }
  if (type === 'recurring') {
    if (!frequency) {
      throw unprocessable([
        {
          loc: ['body', 'frequency'],
          msg: SCHEDULE_MESSAGES.frequencyRequired,
          type: 'missing',
        },
      ]);
    }
    checkRuns(frequency, now);
  } else if (enabled && (given('scheduled_at') || given('enabled') || given('schedule_type'))) {
    // A one-time schedule that will run needs a date ahead (one that already ran keeps its date otherwise).
    if (scheduledAt === null) {
      throw unprocessable([{ loc: ['body', 'scheduled_at'], msg: SCHEDULE_MESSAGES.runAtRequired, type: 'missing' }]);
    }
    checkFuture(now, scheduledAt);
  }

  const timingChanged =
    type !== current.schedule_type ||
    frequency !== current.frequency ||
    scheduledAt !== current.scheduled_at ||
    enabled !== (current.enabled === 1);
  const next = !enabled
    ? null
    : timingChanged || current.next_run_at === null
      ? nextRunOf({ schedule_type: type, frequency, scheduled_at: scheduledAt, enabled: 1 }, now)
      : current.next_run_at;
  const name = body.name?.trim() ?? current.name;
  const prompt = body.prompt ?? current.prompt;
  const notifyOn = body.notify_on ?? current.notify_on;
  const bypass = body.bypass_approval == null ? current.bypass_approval : body.bypass_approval ? 1 : 0;
  // Vendor fields: omitted keeps; null clears the nullable ones (agent and interval_count keep their value).
  const keep = <K extends 'platform' | 'slack_channel_id' | 'slack_team_id' | 'target_devin_id'>(k: K) =>
    body[k] === undefined ? current[k] : (body[k]?.trim() ?? null);
  // Enabled again (by someone who may): the pause is over.
  const pausedReason = enabled ? null : current.paused_reason;
  const pausedAt = enabled ? null : current.paused_at;
  db.prepare(
    `UPDATE schedules SET name = ?, prompt = ?, frequency = ?, schedule_type = ?, scheduled_at = ?, enabled = ?, notify_on = ?,
       playbook_id = ?, tags = ?, bypass_approval = ?, last_edited_by = ?, updated_at = ?, next_run_at = ?,
       agent = ?, interval_count = ?, platform = ?, slack_channel_id = ?, slack_team_id = ?, target_devin_id = ?,
       run_as_user_id = ?, paused_reason = ?, paused_at = ?
     WHERE scheduled_session_id = ?`,
  ).run(
    name,
    prompt,
    frequency,
    type,
    scheduledAt,
    enabled ? 1 : 0,
    notifyOn,
    playbookId,
    tags,
    bypass,
    principal.service_user_id,
    Math.max(now, current.updated_at),
    next,
    body.agent ?? current.agent,
    body.interval_count ?? current.interval_count,
    keep('platform'),
    keep('slack_channel_id'),
    keep('slack_team_id'),
    keep('target_devin_id'),
    runAs,
    pausedReason,
    pausedAt,
    scheduleId,
  );
  const schedule = toSchedule(getRow(db, orgId, scheduleId));
  const changed = Object.keys(body).filter((k) => body[k as keyof UpdateBody] !== undefined);
  ctx.audit({
    action: 'update_schedule',
    org_id: orgId,
    principal,
    data: { scheduled_session_id: scheduleId, name: schedule.name, changed, enabled: schedule.enabled },
  });
  return schedule;
}

function deleteSchedule(ctx: SandboxContext, orgId: string, scheduleId: string, principal: Principal): Schedule {
  const row = getRow(ctx.db, orgId, scheduleId);
  const now = ctx.now();
  ctx.db
    .prepare('UPDATE schedules SET deleted_at = ?, enabled = 0, next_run_at = NULL WHERE scheduled_session_id = ?')
    .run(now, scheduleId);
  ctx.audit({
    action: 'delete_schedule',
    org_id: orgId,
    principal,
    data: { scheduled_session_id: scheduleId, name: row.name },
  });
  return toSchedule(row);
}

interface RunRow extends Record<string, unknown> {
  run_id: string;
  scheduled_session_id: string;
  session_id: string | null;
  started_at: number;
  outcome: string;
  settled_at: number | null;
  error_message: string | null;
}

const toRun = (r: RunRow): ScheduleRun => ({
  run_id: r.run_id,
  scheduled_session_id: r.scheduled_session_id,
  session_id: r.session_id,
  started_at: iso(r.started_at)!,
  outcome: r.outcome,
  settled_at: iso(r.settled_at),
  error_message: r.error_message,
});

// ---------------------------------------------------------------- seed

function seedSchedules(ctx: SeedContext): void {
  const { db, rng } = ctx;
  const now = ctx.now();
  const actors = seedActors(db);
  const candidates = [
    { service_user_id: 'service-user-sandbox-admin', service_user_name: 'Sandbox Admin' },
    ...(actors?.serviceUsers.slice(0, 3) ?? []),
  ];
  const insert = db.prepare(
    `INSERT INTO schedules (scheduled_session_id, org_id, name, prompt, frequency, schedule_type, scheduled_at, enabled,
       notify_on, playbook_id, tags, bypass_approval, created_by, created_by_name, last_edited_by, created_at, updated_at,
       consecutive_failures, next_run_at, last_executed_at, last_error_at, last_error_message, last_session_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, 0, ?, NULL, NULL, NULL, NULL)`,
  );
  const insertRun = db.prepare(
    `INSERT INTO schedule_runs (run_id, scheduled_session_id, org_id, session_id, started_at, outcome, settled_at, error_message)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  ctx.orgIds().forEach((orgId, orgIndex) => {
    // Only principals that may run schedules here create the seeded ones (others would be paused at once).
    const able = candidates.filter((c) => standingProblem(db, c.service_user_id, orgId, 'creator', now) === null);
    const creators = able.length ? able : candidates.slice(0, 1);
    const allowed = allowedTagsOf(db, orgId);
    const tagsFor = (tags: string[] | undefined) => {
      const ok = (tags ?? []).filter((t) => allowed.length === 0 || allowed.includes(t));
      return ok.length ? ok : null;
    };
    const templates = rng.sample(RECURRING_SCHEDULES, 3 + (orgIndex % 3));
    templates.forEach((tpl, i) => {
      const id = `sched-${rng.hex(12)}`;
      const creator = rng.pick(creators);
      const created = now - rng.int(30, 300) * 86_400;
      const enabled = !(i === 2 && orgIndex % 2 === 1);
      const tags = tagsFor(tpl.tags);
      insert.run(
        id,
        orgId,
        tpl.name,
        tpl.prompt,
        tpl.frequency,
        'recurring',
        null,
        enabled ? 1 : 0,
        tpl.notify_on,
        tpl.playbook ?? null,
        tags ? JSON.stringify(tags) : null,
        creator.service_user_id,
        creator.service_user_name,
        creator.service_user_id,
        created,
        created + rng.int(0, 20) * 86_400,
        enabled ? nextCronRun(tpl.frequency, now) : null,
      );
      // The last few runs, as settled sessions at the cron's own times; one schedule per organization keeps failing.
      const failing = i === 0 && orgIndex % 2 === 0;
      const times = previousCronRuns(tpl.frequency, now, 3)
        .filter((t) => t > created && t < now - 3_600)
        .reverse();
      let failures = 0;
      let lastError: { at: number; message: string } | null = null;
      let lastSession: string | null = null;
      for (const [k, t] of times.entries()) {
        const error = failing ? k > 0 : rng.chance(0.15);
        const past: SandboxContext = {
          ...ctx,
          now: () => t,
          nowMs: () => t * 1000,
          audit: (e) => ctx.audit({ ...e, created_at: e.created_at ?? t }),
        };
        const session = createSession(
          past,
          orgId,
          { prompt: tpl.prompt, title: tpl.name, playbook_id: tpl.playbook ?? null, tags, resumable: true },
          creator,
          { origin: 'automation', auditData: { scheduled_session_id: id, schedule_name: tpl.name } },
        );
        const ended = t + rng.int(10, 50) * 60;
        const message = error ? rng.pick(SCHEDULE_ERRORS) : rng.pick(AGENT_DONE);
        db.prepare(
          `UPDATE sessions SET status = ?, status_detail = NULL, sim_next_ms = NULL, sim_steps = 0, updated_at = ?, acus_consumed = ?
           WHERE session_id = ?`,
        ).run(error ? 'error' : 'exit', ended, rng.int(50, 900) / 100, session.session_id);
        addMessage(db, `event-${rng.hex(16)}`, session.session_id, 'agent', message, ended);
        const errorMessage = error ? `Session ${session.session_id} ended in error: ${message}` : null;
        insertRun.run(
          `run-${rng.hex(16)}`,
          id,
          orgId,
          session.session_id,
          t,
          error ? 'failure' : 'success',
          ended,
          errorMessage,
        );
        failures = error ? failures + 1 : 0;
        if (error) lastError = { at: ended, message: errorMessage! };
        lastSession = session.session_id;
      }
      if (lastSession) {
        db.prepare(
          `UPDATE schedules SET last_executed_at = ?, last_session_id = ?, consecutive_failures = ?, last_error_at = ?,
             last_error_message = ? WHERE scheduled_session_id = ?`,
        ).run(times.at(-1)!, lastSession, failures, lastError?.at ?? null, lastError?.message ?? null, id);
      }
    });
    // One one-time schedule ahead, at 14:00 UTC in a few days.
    const tpl = ONE_TIME_SCHEDULES[orgIndex % ONE_TIME_SCHEDULES.length]!;
    const day = Math.floor(now / 86_400) + 2 + (orgIndex % 4);
    const at = day * 86_400 + 14 * 3_600;
    const creator = rng.pick(creators);
    insert.run(
      `sched-${rng.hex(12)}`,
      orgId,
      tpl.name,
      tpl.prompt,
      null,
      'one_time',
      at,
      1,
      tpl.notify_on,
      null,
      null,
      creator.service_user_id,
      creator.service_user_name,
      creator.service_user_id,
      now - rng.int(1, 10) * 86_400,
      now - rng.int(0, 1) * 86_400 - 3_600,
      at,
    );
  });
  db.prepare(`INSERT OR REPLACE INTO sandbox_meta (key, value) VALUES ('schedules_seeded', ?)`).run(String(now));
}

export const schedulesModule: SandboxModule = {
  name: 'schedules',
  migrations: [
    {
      id: 'schedules-001-create',
      sql: `CREATE TABLE schedules (
        scheduled_session_id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL,
        name TEXT NOT NULL,
        prompt TEXT NOT NULL,
        frequency TEXT,
        schedule_type TEXT NOT NULL CHECK (schedule_type IN ('recurring', 'one_time')),
        scheduled_at INTEGER,
        enabled INTEGER NOT NULL,
        notify_on TEXT NOT NULL,
        playbook_id TEXT,
        tags TEXT,
        bypass_approval INTEGER NOT NULL DEFAULT 0,
        created_by TEXT NOT NULL,
        created_by_name TEXT NOT NULL,
        last_edited_by TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        last_executed_at INTEGER,
        last_error_at INTEGER,
        last_error_message TEXT,
        consecutive_failures INTEGER NOT NULL DEFAULT 0,
        next_run_at INTEGER,
        last_session_id TEXT,
        deleted_at INTEGER
      );
      CREATE INDEX schedules_org ON schedules (org_id, created_at, scheduled_session_id);
      CREATE INDEX schedules_due ON schedules (next_run_at) WHERE next_run_at IS NOT NULL AND enabled = 1;
      CREATE TABLE schedule_runs (
        run_id TEXT PRIMARY KEY,
        scheduled_session_id TEXT NOT NULL REFERENCES schedules (scheduled_session_id),
        org_id TEXT NOT NULL,
        session_id TEXT,
        started_at INTEGER NOT NULL,
        outcome TEXT NOT NULL,
        settled_at INTEGER,
        error_message TEXT
      );
      CREATE INDEX schedule_runs_schedule ON schedule_runs (scheduled_session_id, started_at, run_id);
      CREATE INDEX schedule_runs_pending ON schedule_runs (outcome) WHERE outcome = 'running';`,
    },
    {
      // The vendor's fields, the principal a schedule runs as, and why the service paused it.
      id: 'schedules-002-vendor-fields-and-pause',
      sql: `ALTER TABLE schedules ADD COLUMN agent TEXT NOT NULL DEFAULT 'agent';
      ALTER TABLE schedules ADD COLUMN interval_count INTEGER NOT NULL DEFAULT 1;
      ALTER TABLE schedules ADD COLUMN platform TEXT;
      ALTER TABLE schedules ADD COLUMN slack_channel_id TEXT;
      ALTER TABLE schedules ADD COLUMN slack_team_id TEXT;
      ALTER TABLE schedules ADD COLUMN target_devin_id TEXT;
      ALTER TABLE schedules ADD COLUMN create_as_user_id TEXT;
      ALTER TABLE schedules ADD COLUMN run_as_user_id TEXT;
      ALTER TABLE schedules ADD COLUMN paused_reason TEXT;
      ALTER TABLE schedules ADD COLUMN paused_at INTEGER;`,
    },
  ],
  seed: seedSchedules,
  // A store seeded before schedules existed gets them at its next start.
  ensure(ctx) {
    if (!ctx.db.prepare(`SELECT 1 FROM sandbox_meta WHERE key = 'schedules_seeded'`).get()) seedSchedules(ctx);
  },
  start: startScheduler,
  handlers: {
    'schedules.list': ({ params, query }, ctx) => listSchedules(ctx, params.org_id, query),
    'schedules.create': ({ params, body, principal }, ctx) => createSchedule(ctx, params.org_id, body, principal),
    'schedules.get': ({ params }, ctx) => {
      advanceSchedules(ctx);
      return toSchedule(getRow(ctx.db, params.org_id, params.schedule_id));
    },
    'schedules.update': ({ params, body, principal }, ctx) => {
      // A schedule that the runner would pause now is paused before the change is judged.
      advanceSchedules(ctx);
      return updateSchedule(ctx, params.org_id, params.schedule_id, body, principal);
    },
    'schedules.delete': ({ params, principal }, ctx) =>
      deleteSchedule(ctx, params.org_id, params.schedule_id, principal),
    'schedules.runs.list': ({ params, query }, ctx) => {
      advanceSchedules(ctx);
      getRow(ctx.db, params.org_id, params.schedule_id);
      return paginate<RunRow, ScheduleRun>(ctx.db, {
        scope: `schedule-runs:${params.schedule_id}`,
        select: 'SELECT * FROM schedule_runs',
        where: [['scheduled_session_id = ?', params.schedule_id]],
        order: [
          { col: 'started_at', dir: 'desc' },
          { col: 'run_id', dir: 'desc' },
        ],
        first: query.first,
        after: query.after,
        map: toRun,
      });
    },
  },
};

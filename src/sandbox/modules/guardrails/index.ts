/**
 * Guardrails in the sandbox: the enterprise's guardrails, three months of violations across organizations and
 * sessions (every action, confidence from 0.2 to 1), the enterprise and organization violation lists, and a
 * simulation in which running sessions now and then trip a guardrail.
 *
 * A violation acts on its session: `block_message` puts the blocked message in the session's thread (source
 * `guardrail`), `kill_session` ends the session in `error`. Every violation writes an audit-log entry
 * (`guardrail_violation`). Seeds after the sessions module, whose sessions it picks.
 */
import type { GuardrailAction, GuardrailViolation, Guardrail } from '../../../api/operations/guardrails';
import type { Db } from '../../../node/db';
import { notFound } from '../../../node/problem-writer';
import type { SandboxContext, SandboxModule, SeedContext } from '../../context';
import { paginate } from '../../cursor';
import { createRng, seedFor, type Rng } from '../../random';
import { advanceDue } from '../sessions/simulation';
import { actionFor, blockedMessageText, GUARDRAILS, killedSessionText } from './seed-data';

/** Seeded violations per organization, over the seeded sessions' 90 days. */
export const VIOLATIONS_PER_ORG = 260;
/** Ticks between chances of a live violation (about every 40 s at the default 1 s tick). */
const LIVE_EVERY_TICKS = 40;

interface ViolationRow extends Record<string, unknown> {
  violation_id: string;
  guardrail_id: string;
  guardrail_name: string;
  guardrail_type: string | null;
  org_id: string;
  event_id: string;
  session_id: string | null;
  reasoning: string;
  confidence_score: number;
  action_taken: string;
  user_message: string;
  created_at: number;
}

interface GuardrailRow extends Record<string, unknown> {
  guardrail_id: string;
  name: string;
  guardrail_type: string;
  description: string;
  action: string;
  enabled: number;
  created_at: number;
}

const toViolation = (r: ViolationRow): GuardrailViolation => ({
  violation_id: r.violation_id,
  guardrail_id: r.guardrail_id,
  guardrail_name: r.guardrail_name,
  guardrail_type: r.guardrail_type,
  org_id: r.org_id,
  event_id: r.event_id,
  session_id: r.session_id,
  reasoning: r.reasoning,
  confidence_score: Math.round(r.confidence_score * 1000) / 1000,
  action_taken: r.action_taken,
  user_message: r.user_message,
  created_at: r.created_at,
});

const toGuardrail = (r: GuardrailRow): Guardrail => ({
  guardrail_id: r.guardrail_id,
  name: r.name,
  guardrail_type: r.guardrail_type,
  description: r.description,
  action: r.action,
  enabled: r.enabled === 1,
  created_at: r.created_at,
});

const VIOLATION_SELECT = `SELECT v.*, g.name AS guardrail_name, g.guardrail_type AS guardrail_type
  FROM guardrail_violations v JOIN guardrails g ON g.guardrail_id = v.guardrail_id`;

export interface ViolationInput {
  guardrail_id: string;
  session_id: string;
  confidence_score: number;
  /** The triggering message; by default one of the guardrail's own. */
  user_message?: string;
  reasoning?: string;
  /** By default the guardrail's action at this confidence. */
  action_taken?: GuardrailAction;
  created_at?: number;
}

/**
 * Records a violation on a session and applies its action: a blocked message enters the thread (source
 * `guardrail`); `kill_session` ends the session in `error` and stops its simulation. Writes the audit entry.
 */
export function recordViolation(ctx: SandboxContext, input: ViolationInput): GuardrailViolation {
  const { db } = ctx;
  const g = db.prepare('SELECT * FROM guardrails WHERE guardrail_id = ?').get(input.guardrail_id) as
    GuardrailRow | undefined;
  if (!g) throw notFound('Guardrail', input.guardrail_id);
  const session = db
    .prepare('SELECT session_id, org_id, status FROM sessions WHERE session_id = ?')
    .get(input.session_id) as { session_id: string; org_id: string; status: string } | undefined;
  if (!session) throw notFound('Session', input.session_id);
  const def = GUARDRAILS.find((d) => d.name === g.name);
  const pick = seedRng(`${input.session_id}:${input.guardrail_id}`);
  const k = def ? pick.int(0, def.messages.length - 1) : 0;
  const message = input.user_message ?? def?.messages[k] ?? 'The message matched the guardrail.';
  const reasoning = input.reasoning ?? def?.reasonings[Math.min(k, def.reasonings.length - 1)] ?? g.description;
  const action = input.action_taken ?? actionFor(g.action as GuardrailAction, input.confidence_score);
  const at = input.created_at ?? ctx.now();
  const violationId = ctx.newId('violation-');
  const eventId = ctx.newId('event-');
  db.transaction(() => {
    insertViolation(db, {
      violation_id: violationId,
      guardrail_id: g.guardrail_id,
      org_id: session.org_id,
      event_id: eventId,
      session_id: session.session_id,
      reasoning,
      confidence_score: input.confidence_score,
      action_taken: action,
      user_message: message,
      created_at: at,
    });
    applyAction(ctx, { sessionId: session.session_id, action, guardrailName: g.name, message, reasoning, at });
    ctx.audit({
      action: 'guardrail_violation',
      org_id: session.org_id,
      created_at: at,
      data: {
        violation_id: violationId,
        guardrail_id: g.guardrail_id,
        guardrail_name: g.name,
        session_id: session.session_id,
        action_taken: action,
        confidence_score: input.confidence_score,
      },
    });
  })();
  return toViolation(db.prepare(`${VIOLATION_SELECT} WHERE v.violation_id = ?`).get(violationId) as ViolationRow);
}

function insertViolation(db: Db, v: Omit<ViolationRow, 'guardrail_name' | 'guardrail_type'>): void {
  db.prepare(
    `INSERT INTO guardrail_violations (violation_id, guardrail_id, org_id, event_id, session_id, reasoning,
       confidence_score, action_taken, user_message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    v.violation_id,
    v.guardrail_id,
    v.org_id,
    v.event_id,
    v.session_id,
    v.reasoning,
    v.confidence_score,
    v.action_taken,
    v.user_message,
    v.created_at,
  );
}

function applyAction(
  ctx: SandboxContext,
  a: { sessionId: string; action: string; guardrailName: string; message: string; reasoning: string; at: number },
): void {
  const { db } = ctx;
  const addThread = (text: string) =>
    db
      .prepare(
        'INSERT INTO session_messages (event_id, session_id, source, message, created_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(ctx.newId('event-'), a.sessionId, 'guardrail', text, a.at);
  if (a.action === 'block_message') addThread(blockedMessageText(a.guardrailName, a.message));
  if (a.action === 'kill_session') {
    addThread(killedSessionText(a.guardrailName, a.reasoning));
    db.prepare(
      `UPDATE sessions SET status = 'error', status_detail = NULL, sim_next_ms = NULL,
         updated_at = MAX(updated_at, ?) WHERE session_id = ?`,
    ).run(a.at, a.sessionId);
  }
}

function seedRng(name: string): Rng {
  return createRng(seedFor(name));
}

function seedGuardrails(ctx: SeedContext): void {
  const { db, rng } = ctx;
  const now = ctx.now();
  const insertGuardrail = db.prepare(
    `INSERT INTO guardrails (guardrail_id, name, guardrail_type, description, action, enabled, created_at)
     VALUES (?, ?, ?, ?, ?, 1, ?)`,
  );
  const guardrails = GUARDRAILS.map((def) => {
    const id = `guardrail-${rng.hex(10)}`;
    insertGuardrail.run(id, def.name, def.type, def.description, def.action, now - rng.int(120, 400) * 86_400);
    return { id, def };
  });
  const totalWeight = guardrails.reduce((n, g) => n + g.def.weight, 0);
  const pickGuardrail = () => {
    let x = rng.next() * totalWeight;
    for (const g of guardrails) {
      x -= g.def.weight;
      if (x < 0) return g;
    }
    return guardrails[0]!;
  };
  const lastMessageAt = db.prepare('SELECT max(created_at) AS t FROM session_messages WHERE session_id = ?');
  for (const orgId of ctx.orgIds()) {
    const sessions = db
      .prepare(`SELECT session_id, status, created_at, updated_at FROM sessions WHERE org_id = ? ORDER BY created_at`)
      .all(orgId) as Array<{ session_id: string; status: string; created_at: number; updated_at: number }>;
    if (sessions.length === 0) continue;
    // Kill-session violations go to sessions that ended in error (one each: the kill is what ended them); the
    // other actions to sessions in any other status.
    const errored = sessions.filter((s) => s.status === 'error');
    const ended = sessions.filter((s) => s.status === 'exit' || s.status === 'suspended');
    const live = sessions.filter((s) => !['error', 'exit', 'suspended'].includes(s.status));
    const killed = new Set<string>();
    for (let i = 0; i < VIOLATIONS_PER_ORG; i++) {
      const g = pickGuardrail();
      // Confidence spread from 0.2 to 1, weighted towards the high end where guardrails act.
      const confidence = Math.round((0.2 + 0.8 * Math.sqrt(rng.next())) * 1000) / 1000;
      const action = actionFor(g.def.action, confidence);
      // Live sessions started within the hour: only a few of the months of violations fall on them.
      const pool =
        action === 'kill_session'
          ? errored.filter((s) => !killed.has(s.session_id))
          : live.length > 0 && rng.chance(0.01)
            ? live
            : ended;
      if (pool.length === 0) continue;
      const s = rng.pick(pool);
      if (action === 'kill_session') killed.add(s.session_id);
      const last = (lastMessageAt.get(s.session_id) as { t: number | null }).t ?? s.created_at;
      // After the session's last message (so the blocked message ends its thread); within a live session's run.
      const after = Math.max(last, s.created_at) + rng.int(1, 90);
      const at = after < now - 60 ? after : s.created_at + rng.int(0, Math.max(0, now - 1 - s.created_at));
      const k = rng.int(0, g.def.messages.length - 1);
      const message = g.def.messages[k]!;
      const reasoning = g.def.reasonings[Math.min(k, g.def.reasonings.length - 1)]!;
      const violationId = `violation-${rng.hex(14)}`;
      insertViolation(db, {
        violation_id: violationId,
        guardrail_id: g.id,
        org_id: orgId,
        event_id: `event-${rng.hex(16)}`,
        session_id: s.session_id,
        reasoning,
        confidence_score: confidence,
        action_taken: action,
        user_message: message,
        created_at: at,
      });
      applyAction(ctx, { sessionId: s.session_id, action, guardrailName: g.def.name, message, reasoning, at });
      ctx.audit({
        action: 'guardrail_violation',
        org_id: orgId,
        created_at: at,
        data: {
          violation_id: violationId,
          guardrail_id: g.id,
          guardrail_name: g.def.name,
          session_id: s.session_id,
          action_taken: action,
          confidence_score: confidence,
        },
      });
    }
  }
}

/** Now and then a running session trips a guardrail (any action, kill_session included). */
function startViolations(ctx: SandboxContext): () => void {
  const rng = seedRng('guardrails-simulation');
  const timer = setInterval(() => {
    try {
      if (!rng.chance(0.5)) return;
      advanceDue(ctx);
      const session = ctx.db
        .prepare(`SELECT session_id FROM sessions WHERE status = 'running' ORDER BY random() LIMIT 1`)
        .get() as { session_id: string } | undefined;
      const guardrail = ctx.db.prepare(`SELECT guardrail_id FROM guardrails ORDER BY random() LIMIT 1`).get() as
        { guardrail_id: string } | undefined;
      if (!session || !guardrail) return;
      recordViolation(ctx, {
        guardrail_id: guardrail.guardrail_id,
        session_id: session.session_id,
        confidence_score: Math.round((0.3 + 0.7 * rng.next()) * 1000) / 1000,
      });
    } catch (err) {
      if (!(err instanceof TypeError) && !/not open|closed/i.test(String(err)))
        console.error('[sandbox] guardrail simulation:', err);
    }
  }, ctx.tickMs * LIVE_EVERY_TICKS);
  timer.unref?.();
  return () => clearInterval(timer);
}

interface ListInput {
  orgId?: string;
  first: number;
  after?: string | null | undefined;
  order: 'asc' | 'desc';
  session_id?: string | undefined;
  guardrail_id?: string | undefined;
  time_after?: number | undefined;
  time_before?: number | undefined;
  action_taken?: string[] | undefined;
}

function listViolations(ctx: SandboxContext, q: ListInput) {
  const { db } = ctx;
  if (q.session_id !== undefined && !db.prepare('SELECT 1 FROM sessions WHERE session_id = ?').get(q.session_id)) {
    throw notFound('Session', q.session_id);
  }
  if (
    q.guardrail_id !== undefined &&
    !db.prepare('SELECT 1 FROM guardrails WHERE guardrail_id = ?').get(q.guardrail_id)
  ) {
    throw notFound('Guardrail', q.guardrail_id);
  }
  const where: Array<[string, ...Array<string | number>]> = [];
  if (q.orgId) where.push(['v.org_id = ?', q.orgId]);
  if (q.session_id !== undefined) where.push(['v.session_id = ?', q.session_id]);
  if (q.guardrail_id !== undefined) where.push(['v.guardrail_id = ?', q.guardrail_id]);
  if (q.time_after !== undefined) where.push(['v.created_at >= ?', q.time_after]);
  if (q.time_before !== undefined) where.push(['v.created_at < ?', q.time_before]);
  if (q.action_taken && q.action_taken.length > 0) {
    where.push([`v.action_taken IN (${q.action_taken.map(() => '?').join(', ')})`, ...q.action_taken]);
  }
  return paginate<ViolationRow, GuardrailViolation>(db, {
    scope: `violations:${q.orgId ?? 'enterprise'}:${q.order}`,
    select: VIOLATION_SELECT,
    where,
    order: [
      { col: 'v.created_at', dir: q.order },
      { col: 'v.violation_id', dir: q.order },
    ],
    first: q.first,
    after: q.after,
    map: toViolation,
  });
}

export const guardrailsModule: SandboxModule = {
  name: 'guardrails',
  migrations: [
    {
      id: 'guardrails-001-create',
      sql: `CREATE TABLE guardrails (
        guardrail_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        guardrail_type TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        action TEXT NOT NULL,
        enabled INTEGER NOT NULL DEFAULT 1,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE guardrail_violations (
        violation_id TEXT PRIMARY KEY,
        guardrail_id TEXT NOT NULL REFERENCES guardrails (guardrail_id),
        org_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        session_id TEXT,
        reasoning TEXT NOT NULL,
        confidence_score REAL NOT NULL,
        action_taken TEXT NOT NULL,
        user_message TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX guardrail_violations_time ON guardrail_violations (created_at, violation_id);
      CREATE INDEX guardrail_violations_org_time ON guardrail_violations (org_id, created_at, violation_id);
      CREATE INDEX guardrail_violations_session ON guardrail_violations (session_id);
      CREATE INDEX guardrail_violations_guardrail ON guardrail_violations (guardrail_id, created_at);`,
    },
  ],
  seed: seedGuardrails,
  start: startViolations,
  handlers: {
    'guardrails.violations.list': ({ query }, ctx) => listViolations(ctx, query),
    'guardrails.violations.organization.list': ({ params, query }, ctx) =>
      listViolations(ctx, { ...query, orgId: params.org_id }),
    'guardrails.list': ({ query }, ctx) =>
      paginate<GuardrailRow, Guardrail>(ctx.db, {
        scope: 'guardrails',
        select: 'SELECT * FROM guardrails',
        order: [
          { col: 'name', dir: 'asc' },
          { col: 'guardrail_id', dir: 'asc' },
        ],
        first: query.first,
        after: query.after,
        map: toGuardrail,
      }),
  },
};

/**
 * The session simulation: a session moves new → claimed → running (status_detail working, waiting_for_user,
 * waiting_for_approval, finished) → exit, error or suspended, one step per few ticks of `SANDBOX_TICK_MS`.
 * With the default 1 s tick a new session changes status within 2 s and settles in 20–50 s. A message to a
 * suspended (or ended) session resumes it: resuming → running → a new outcome. Insights asked for are ready
 * a few ticks later.
 */
import type { InsightsAnalysis } from '../../../api/operations/sessions';
import type { SandboxContext } from '../../context';
import { createRng, seedFor, type Rng } from '../../random';
import { AGENT_DONE, AGENT_ERRORS, AGENT_PROGRESS, AGENT_QUESTIONS, AGENT_START, ISSUES, TAGS } from './seed-data';
import { addMessage, countMessages, type SessionRow } from './store';

export type Outcome = 'exit' | 'error' | 'suspended';

const simRng: Rng = createRng(seedFor('sessions-simulation'));

export function pickOutcome(rng: Rng): Outcome {
  const x = rng.next();
  return x < 0.6 ? 'exit' : x < 0.85 ? 'suspended' : 'error';
}

/** Ticks between steps of each kind. */
export const STEP_TICKS = { claim: 2, start: [2, 4], step: [2, 5], finish: 1, resume: 2, insights: 5 } as const;

const at = (ctx: SandboxContext, ticks: number) => ctx.nowMs() + Math.max(1, ticks) * ctx.tickMs;

/** Plans a fresh run: how many running steps, and how it ends. */
export function planRun(rng: Rng): { steps: number; outcome: Outcome } {
  return { steps: rng.int(4, 8), outcome: pickOutcome(rng) };
}

/** A session a message or the create call just (re)started: what to write into its row. */
export function resumePlan(ctx: SandboxContext): { sim_next_ms: number; sim_steps: number; sim_outcome: Outcome } {
  const plan = planRun(simRng);
  return { sim_next_ms: at(ctx, STEP_TICKS.resume), sim_steps: Math.max(2, plan.steps - 3), sim_outcome: plan.outcome };
}

export function newSessionPlan(ctx: SandboxContext): { sim_next_ms: number; sim_steps: number; sim_outcome: Outcome } {
  const plan = planRun(simRng);
  return { sim_next_ms: at(ctx, STEP_TICKS.claim), sim_steps: plan.steps, sim_outcome: plan.outcome };
}

function prUrl(rng: Rng, repos: string[]): string {
  const repo = repos[0] ?? 'acme/web-app';
  return `https://github.com/${repo}/pull/${rng.int(100, 9_999)}`;
}

/** One step of one session. */
function step(ctx: SandboxContext, r: SessionRow): void {
  const { db } = ctx;
  const now = ctx.now();
  const msg = (text: string) => addMessage(db, ctx.newId('event-'), r.session_id, 'agent', text, now);
  const set = (fields: Partial<SessionRow>) => {
    const cols = Object.keys(fields);
    db.prepare(`UPDATE sessions SET ${cols.map((c) => `${c} = ?, `).join('')}updated_at = ? WHERE session_id = ?`).run(
      ...cols.map((c) => (fields as Record<string, unknown>)[c] as string | number | null),
      now,
      r.session_id,
    );
  };
  const rng = simRng;
  const range = (t: readonly [number, number]) => rng.int(t[0], t[1]);
  switch (r.status) {
    case 'new':
      set({ status: 'claimed', status_detail: null, sim_next_ms: at(ctx, range(STEP_TICKS.start)) });
      return;
    case 'claimed':
      msg(rng.pick(AGENT_START));
      set({ status: 'running', status_detail: 'working', sim_next_ms: at(ctx, range(STEP_TICKS.step)) });
      return;
    case 'resuming':
      msg('Picking up where I left off, with your message in mind.');
      set({ status: 'running', status_detail: 'working', sim_next_ms: at(ctx, range(STEP_TICKS.step)) });
      return;
    case 'running': {
      if (r.status_detail === 'finished') {
        const prs = JSON.parse(r.pull_requests) as Array<{ pr_url: string; pr_state: string }>;
        // A code-scan remediation always ends its successful run with its fix as a pull request.
        if (r.origin === 'code_scan_remediation' || rng.chance(0.7)) {
          prs.push({ pr_url: prUrl(rng, JSON.parse(r.repos) as string[]), pr_state: 'open' });
        }
        set({ status: 'exit', status_detail: null, sim_next_ms: null, pull_requests: JSON.stringify(prs) });
        return;
      }
      const acus = r.acus_consumed + rng.int(5, 40) / 100;
      if (r.sim_steps > 0) {
        const last = r.sim_steps === 1 && r.sim_outcome === 'suspended';
        const x = rng.next();
        const detail = last
          ? 'waiting_for_user'
          : x < 0.8
            ? 'working'
            : x < 0.9
              ? 'waiting_for_approval'
              : 'waiting_for_user';
        if (detail === 'waiting_for_user') msg(rng.pick(AGENT_QUESTIONS));
        else if (detail === 'working' && rng.chance(0.4)) msg(rng.pick(AGENT_PROGRESS));
        set({
          status_detail: detail,
          acus_consumed: acus,
          sim_steps: r.sim_steps - 1,
          sim_next_ms: at(ctx, range(STEP_TICKS.step)),
        });
        return;
      }
      if (r.sim_outcome === 'error') {
        msg(rng.pick(AGENT_ERRORS));
        set({ status: 'error', status_detail: null, acus_consumed: acus, sim_next_ms: null });
      } else if (r.sim_outcome === 'suspended') {
        set({ status: 'suspended', status_detail: 'inactivity', sim_next_ms: null });
      } else {
        msg(rng.pick(AGENT_DONE));
        set({ status_detail: 'finished', acus_consumed: acus, sim_next_ms: at(ctx, STEP_TICKS.finish) });
      }
      return;
    }
    default:
      set({ sim_next_ms: null });
  }
}

/** Builds the insights analysis of a session from its record and thread. */
export function buildAnalysis(ctx: SandboxContext, r: SessionRow): InsightsAnalysis {
  const messages = ctx.db
    .prepare('SELECT source, message, created_at FROM session_messages WHERE session_id = ? ORDER BY seq LIMIT 12')
    .all(r.session_id) as Array<{ source: string; message: string; created_at: number }>;
  const tags = JSON.parse(r.tags) as string[];
  const seed = [...r.session_id].reduce((n, ch) => n + ch.charCodeAt(0), 0);
  const rng = createRng(seed);
  return {
    classification: {
      category: r.category ?? 'investigation',
      summary: `${r.title ?? 'Session'}: ${r.status === 'exit' ? 'completed' : r.status === 'error' ? 'ended with an error' : `currently ${r.status}`}.`,
    },
    action_items: [
      'Add the test command to the repository knowledge so the agent finds it faster.',
      tags.length
        ? `Keep tagging similar work with ${tags.join(', ')} to compare runs.`
        : `Tag sessions like this one (e.g. ${rng.pick(TAGS)}) to compare runs.`,
    ],
    issues: rng.sample(ISSUES, rng.int(1, 2)),
    suggested_prompt: `${r.prompt.split('\n')[0]!.slice(0, 300)} Run the test suite before opening the pull request, and keep the change backwards compatible.`,
    timeline: messages.map((m) => ({
      at: m.created_at,
      title: m.source === 'user' ? 'User message' : 'Agent update',
      detail: m.message.slice(0, 160),
    })),
  };
}

export function sessionSize(ctx: SandboxContext, sessionId: string): string {
  const { agent, user } = countMessages(ctx.db, sessionId);
  const n = agent + user;
  return n < 4 ? 'xs' : n < 8 ? 's' : n < 16 ? 'm' : n < 32 ? 'l' : 'xl';
}

/** Runs every step that is due, and completes insights that are ready. Cheap when nothing is due. */
export function advanceDue(ctx: SandboxContext): void {
  const nowMs = ctx.nowMs();
  const due = ctx.db
    .prepare('SELECT * FROM sessions WHERE sim_next_ms IS NOT NULL AND sim_next_ms <= ? ORDER BY sim_next_ms LIMIT 500')
    .all(nowMs) as SessionRow[];
  const ready = ctx.db
    .prepare(`SELECT * FROM sessions WHERE insights_ready_ms IS NOT NULL AND insights_ready_ms <= ? LIMIT 100`)
    .all(nowMs) as SessionRow[];
  if (due.length === 0 && ready.length === 0) return;
  ctx.db.transaction(() => {
    for (const r of due) step(ctx, r);
    for (const r of ready) {
      ctx.db
        .prepare(
          `UPDATE sessions SET insights_status = 'completed', insights_ready_ms = NULL, analysis = ? WHERE session_id = ?`,
        )
        .run(JSON.stringify(buildAnalysis(ctx, r)), r.session_id);
    }
  })();
}

export function insightsReadyAt(ctx: SandboxContext): number {
  return at(ctx, STEP_TICKS.insights);
}

/** The background loop: one pass per tick. */
export function startSimulation(ctx: SandboxContext): () => void {
  const timer = setInterval(() => {
    try {
      advanceDue(ctx);
    } catch (err) {
      // The store closes before the timer on shutdown; anything else is a defect worth seeing.
      if (!(err instanceof TypeError) && !/not open|closed/i.test(String(err)))
        console.error('[sandbox] session simulation:', err);
    }
  }, ctx.tickMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

/**
 * The sessions seed: per organization, hundreds of sessions over the last 90 days, in every status and
 * origin, with titles, tags, pull requests, ACUs, message threads and parent/child links. The live ones
 * (new, claimed, running, resuming) are recent and keep moving under the simulation for several minutes.
 */
import type { SeedContext } from '../../context';
import type { Rng } from '../../random';
import {
  AGENT_DONE,
  AGENT_ERRORS,
  AGENT_PROGRESS,
  AGENT_QUESTIONS,
  AGENT_START,
  ORIGIN_WEIGHTS,
  PLAYBOOKS,
  REPOS,
  SERVICE_USERS,
  TAGS,
  TASKS,
  USER_REPLIES,
} from './seed-data';
import { pickOutcome } from './simulation';

export const SESSIONS_PER_ORG = 300;

const STATUS_WEIGHTS: ReadonlyArray<[string, number]> = [
  ['exit', 46],
  ['suspended', 20],
  ['error', 10],
  ['running', 14],
  ['new', 3],
  ['claimed', 3],
  ['resuming', 2],
  ['creating', 2],
];

function weighted(rng: Rng, weights: ReadonlyArray<[string, number]>): string {
  const total = weights.reduce((n, [, w]) => n + w, 0);
  let x = rng.next() * total;
  for (const [v, w] of weights) {
    x -= w;
    if (x < 0) return v;
  }
  return weights[0]![0];
}

export function seedSessions(ctx: SeedContext): void {
  const { db, rng } = ctx;
  const now = ctx.now();
  const nowMs = ctx.nowMs();
  const made = Array.from({ length: 14 }, () => `user-${rng.hex(10)}`);
  // Sessions are started by the organization's own members (seeded just before), so every screen that names a
  // session's user finds that person; made-up ids only where no member is seeded (a store without members).
  const membersOf = orgMembers(db);
  const usersOf = (orgId: string) => {
    const members = membersOf(orgId);
    return members.length > 0 ? members : made;
  };
  const insert = db.prepare(
    `INSERT INTO sessions (session_id, org_id, status, status_detail, title, prompt, origin, category, created_at, updated_at,
       tags, acus_consumed, pull_requests, is_archived, is_advanced, user_id, service_user_id, playbook_id, parent_session_id,
       repos, structured_output, sim_next_ms, sim_steps, sim_outcome)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertMessage = db.prepare(
    'INSERT INTO session_messages (event_id, session_id, source, message, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  let eventNo = 0;

  for (const orgId of ctx.orgIds()) {
    const orgRepos = rng.sample(REPOS, rng.int(3, 6));
    // Oldest first, so a child always comes after its parent.
    const created = Array.from({ length: SESSIONS_PER_ORG }, () => now - rng.int(120, 90 * 86_400)).sort(
      (a, b) => a - b,
    );
    const earlier: Array<{ id: string; created: number }> = [];
    created.forEach((createdGuess) => {
      let status = weighted(rng, STATUS_WEIGHTS);
      const live =
        status === 'running' ||
        status === 'new' ||
        status === 'claimed' ||
        status === 'resuming' ||
        status === 'creating';
      // Live sessions started recently; the rest are spread over the last 90 days.
      const createdAt = live ? now - rng.int(30, 3_600) : createdGuess;
      if (status === 'creating') status = 'new';
      const id = `session-${rng.hex(16)}`;
      const task = rng.pick(TASKS);
      const repo = rng.pick(orgRepos);
      const origin = weighted(rng, ORIGIN_WEIGHTS);
      const byService = origin === 'api' || origin === 'automation';
      const duration = live ? now - createdAt : rng.int(120, 4 * 3_600);
      const updatedAt = Math.min(now, createdAt + duration);
      const tags = rng.sample(TAGS, rng.int(0, 3));
      const acus = status === 'new' || status === 'claimed' ? 0 : rng.int(live ? 5 : 30, live ? 300 : 4_000) / 100;
      const prs =
        status === 'exit' && rng.chance(0.65)
          ? Array.from({ length: rng.chance(0.15) ? 2 : 1 }, () => ({
              pr_url: `https://github.com/${repo}/pull/${rng.int(100, 9_999)}`,
              pr_state: rng.pick(['merged', 'merged', 'open', 'closed']),
            }))
          : status === 'running' && rng.chance(0.2)
            ? [{ pr_url: `https://github.com/${repo}/pull/${rng.int(100, 9_999)}`, pr_state: 'open' }]
            : [];
      const parent =
        !live || rng.chance(0.5)
          ? earlier.length > 5 && rng.chance(0.08)
            ? rng.pick(earlier.slice(-40))
            : undefined
          : undefined;
      const statusDetail =
        status === 'running'
          ? rng.pick(['working', 'working', 'working', 'waiting_for_user', 'waiting_for_approval'])
          : status === 'suspended'
            ? rng.pick([
                'inactivity',
                'inactivity',
                'inactivity',
                'user_request',
                'usage_limit_exceeded',
                'out_of_credits',
              ])
            : null;
      const structured =
        status === 'exit' && rng.chance(0.3)
          ? JSON.stringify({ summary: `${task.title} in ${repo}`, files_changed: rng.int(1, 24) })
          : null;
      // Live sessions keep moving for up to several minutes of ticks; new and claimed ones wait in the queue
      // for a while first, as they do when capacity is short.
      const firstStep = status === 'new' ? rng.int(5, 300) : status === 'claimed' ? rng.int(3, 100) : rng.int(1, 6);
      const sim = live
        ? { next: nowMs + firstStep * ctx.tickMs, steps: rng.int(3, 100), outcome: pickOutcome(rng) }
        : { next: null, steps: 0, outcome: null };
      insert.run(
        id,
        orgId,
        status,
        statusDetail,
        rng.chance(0.92) ? task.title : null,
        task.prompt.replace('{repo}', repo),
        origin,
        task.category,
        createdAt,
        updatedAt,
        JSON.stringify(tags),
        acus,
        JSON.stringify(prs),
        !live && createdAt < now - 7 * 86_400 && rng.chance(0.12) ? 1 : 0,
        rng.chance(0.1) ? 1 : 0,
        byService ? null : rng.pick(usersOf(orgId)),
        byService ? rng.pick(SERVICE_USERS) : null,
        rng.chance(0.2) ? rng.pick(PLAYBOOKS) : null,
        parent && parent.created < createdAt ? parent.id : null,
        JSON.stringify([repo]),
        structured,
        sim.next,
        sim.steps,
        sim.outcome,
      );
      earlier.push({ id, created: createdAt });

      // The thread: the prompt, then the agent's updates (and the odd exchange), ending by status.
      const thread: Array<['user' | 'agent', string]> = [['user', task.prompt.replace('{repo}', repo)]];
      if (status !== 'new' && status !== 'claimed') {
        thread.push(['agent', rng.pick(AGENT_START)]);
        for (let k = rng.int(0, 4); k > 0; k--) thread.push(['agent', rng.pick(AGENT_PROGRESS)]);
        if (rng.chance(0.3)) {
          thread.push(['agent', rng.pick(AGENT_QUESTIONS)]);
          if (status !== 'suspended') thread.push(['user', rng.pick(USER_REPLIES)]);
        }
        if (status === 'exit') thread.push(['agent', rng.pick(AGENT_DONE)]);
        if (status === 'error') thread.push(['agent', rng.pick(AGENT_ERRORS)]);
        if (status === 'suspended' && statusDetail === 'inactivity') thread.push(['agent', rng.pick(AGENT_QUESTIONS)]);
      }
      thread.forEach(([source, text], k) => {
        const t = createdAt + Math.floor(((updatedAt - createdAt) * k) / Math.max(1, thread.length - 1));
        insertMessage.run(`event-${(eventNo++).toString(16).padStart(8, '0')}${rng.hex(8)}`, id, source, text, t);
      });
    });
  }
}

/** The users with a role in each organization (up to 14, in a stable order), or none when members are not seeded. */
function orgMembers(db: SeedContext['db']): (orgId: string) => readonly string[] {
  const cache = new Map<string, readonly string[]>();
  let stmt: { all(orgId: string): { principal_id: string }[] } | undefined;
  try {
    stmt = db.prepare<[string], { principal_id: string }>(
      `SELECT a.principal_id FROM role_assignments a JOIN users u ON u.user_id = a.principal_id
        WHERE a.principal_type = 'user' AND a.org_id = ? ORDER BY a.principal_id LIMIT 14`,
    );
  } catch {
    stmt = undefined; // no members module in this store
  }
  return (orgId) => {
    let found = cache.get(orgId);
    if (!found) {
      found = stmt ? stmt.all(orgId).map((r) => r.principal_id) : [];
      cache.set(orgId, found);
    }
    return found;
  };
}

/**
 * Sessions in the sandbox: create, list (organization and enterprise), get, messages, archive, terminate,
 * tags and insights, over the sessions tables, with the simulation that moves live sessions along.
 */
import type { GenerateInsightsResult, Session } from '../../../api/operations/sessions';
import type { z } from 'zod';
import { paginate } from '../../cursor';
import type { Principal, SandboxContext, SandboxModule } from '../../context';
import { notFound, HttpProblem } from '../../../node/problem-writer';
import { checkAllowedTags } from '../org-tags';
import { createSession } from './create';
import { seedSessions } from './seed';
import { advanceDue, insightsReadyAt, resumePlan, sessionSize, startSimulation } from './simulation';
import {
  addMessage,
  countMessages,
  filterConditions,
  getRow,
  migrations,
  SESSION_SELECT,
  toMessage,
  toSession,
  type MessageRow,
  type SessionFilters,
  type SessionRow,
} from './store';

const ORDER = [
  { col: 's.created_at', dir: 'desc' },
  { col: 's.session_id', dir: 'desc' },
] as const;

function listSessions(
  ctx: SandboxContext,
  scope: string,
  filters: SessionFilters,
  first: number,
  after: string | null | undefined,
) {
  advanceDue(ctx);
  return paginate<SessionRow, Session>(ctx.db, {
    scope,
    select: SESSION_SELECT,
    where: filterConditions(filters),
    order: ORDER,
    first,
    after,
    map: toSession,
  });
}

/** The session, current as of now; 404 when it does not exist (in this organization). */
function load(ctx: SandboxContext, sessionId: string, orgId?: string): SessionRow {
  advanceDue(ctx);
  const row = getRow(ctx.db, sessionId, orgId);
  if (!row) throw notFound('Session', sessionId);
  return row;
}

const principalOf = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

function update(ctx: SandboxContext, sessionId: string, fields: Record<string, string | number | null>): void {
  const cols = Object.keys(fields);
  ctx.db
    .prepare(`UPDATE sessions SET ${cols.map((c) => `${c} = ?, `).join('')}updated_at = ? WHERE session_id = ?`)
    .run(...cols.map((c) => fields[c]!), ctx.now(), sessionId);
}

/**
 * Delivers a message. A suspended session (or one that ended with exit or error) resumes: resuming →
 * running. A terminated session cannot take messages (409).
 */
function sendMessage(ctx: SandboxContext, row: SessionRow, message: string, principal: Principal): Session {
  if (row.terminated_at !== null) {
    throw new HttpProblem(
      409,
      `Session ${row.session_id} was terminated; it cannot receive messages. Start a new session instead.`,
    );
  }
  ctx.db.transaction(() => {
    addMessage(ctx.db, ctx.newId('event-'), row.session_id, 'user', message, ctx.now());
    if (row.status === 'suspended' || row.status === 'exit' || row.status === 'error') {
      update(ctx, row.session_id, { status: 'resuming', status_detail: null, ...resumePlan(ctx) });
    } else if (row.status === 'running') {
      const fields: Record<string, string | number | null> = {};
      if (row.status_detail === 'waiting_for_user' || row.status_detail === 'waiting_for_approval')
        fields.status_detail = 'working';
      if (row.sim_next_ms === null) Object.assign(fields, resumePlan(ctx));
      update(ctx, row.session_id, fields);
    } else {
      update(ctx, row.session_id, {});
    }
    ctx.audit({
      action: 'send_session_message',
      org_id: row.org_id,
      principal: principalOf(principal),
      data: { session_id: row.session_id, previous_status: row.status },
    });
  })();
  return toSession(getRow(ctx.db, row.session_id)!);
}

function generateInsights(
  ctx: SandboxContext,
  row: SessionRow,
  principal: Principal,
): z.infer<typeof GenerateInsightsResult> {
  if (row.insights_status === 'in_progress' || row.insights_status === 'completed') {
    return { session_id: row.session_id, status: 'already_exists' };
  }
  ctx.db
    .prepare(`UPDATE sessions SET insights_status = 'in_progress', insights_ready_ms = ? WHERE session_id = ?`)
    .run(insightsReadyAt(ctx), row.session_id);
  ctx.audit({
    action: 'generate_session_insights',
    org_id: row.org_id,
    principal: principalOf(principal),
    data: { session_id: row.session_id },
  });
  return { session_id: row.session_id, status: 'started' };
}

function setTags(
  ctx: SandboxContext,
  row: SessionRow,
  tags: string[],
  principal: Principal,
  mode: 'append' | 'replace',
) {
  checkAllowedTags(ctx.db, row.org_id, tags);
  const current = JSON.parse(row.tags) as string[];
  const next = mode === 'append' ? [...new Set([...current, ...tags])] : [...new Set(tags)];
  if (next.length > 50) {
    throw new HttpProblem(422, `A session has at most 50 tags; this one would have ${next.length}`, {
      errors: [
        {
          loc: ['body', 'tags'],
          msg: `at most 50 tags per session; this session would have ${next.length}`,
          type: 'too_big',
        },
      ],
    });
  }
  update(ctx, row.session_id, { tags: JSON.stringify(next) });
  ctx.audit({
    action: 'update_session_tags',
    org_id: row.org_id,
    principal: principalOf(principal),
    data: { session_id: row.session_id, mode, tags: next },
  });
  return { tags: next };
}

export const sessionsModule: SandboxModule = {
  name: 'sessions',
  migrations,
  seed: seedSessions,
  start: startSimulation,
  handlers: {
    'sessions.create': ({ params, body, principal }, ctx) =>
      toSession(createSession(ctx, params.org_id, body, principal)),

    'sessions.list': ({ params, query }, ctx) => {
      const { first, after, ...filters } = query;
      return listSessions(ctx, `sessions:${params.org_id}`, { ...filters, org_ids: [params.org_id] }, first, after);
    },

    'sessions.enterprise.list': ({ query }, ctx) => {
      const { first, after, ...filters } = query;
      return listSessions(ctx, 'sessions:enterprise', filters, first, after);
    },

    'sessions.get': ({ params }, ctx) => toSession(load(ctx, params.agent_id, params.org_id)),

    'sessions.enterprise.get': ({ params }, ctx) => toSession(load(ctx, params.agent_id)),

    'sessions.terminate': ({ params, query, principal }, ctx) => {
      const row = load(ctx, params.agent_id, params.org_id);
      const archive = query.archive === true;
      ctx.db.transaction(() => {
        const fields: Record<string, string | number | null> = {
          sim_next_ms: null,
          insights_ready_ms: row.insights_ready_ms,
        };
        if (row.terminated_at === null) {
          Object.assign(fields, { status: 'exit', status_detail: 'terminated', terminated_at: ctx.now() });
          addMessage(
            ctx.db,
            ctx.newId('event-'),
            row.session_id,
            'agent',
            `The session was terminated by ${principal.service_user_name}.`,
            ctx.now(),
          );
        }
        if (archive) fields.is_archived = 1;
        update(ctx, row.session_id, fields);
        ctx.audit({
          action: 'terminate_session',
          org_id: row.org_id,
          principal: principalOf(principal),
          data: { session_id: row.session_id, archive, previous_status: row.status },
        });
      })();
      return toSession(getRow(ctx.db, row.session_id)!);
    },

    'sessions.archive': ({ params, principal }, ctx) => {
      const row = load(ctx, params.agent_id, params.org_id);
      update(ctx, row.session_id, { is_archived: 1 });
      ctx.audit({
        action: 'archive_session',
        org_id: row.org_id,
        principal: principalOf(principal),
        data: { session_id: row.session_id },
      });
      return toSession(getRow(ctx.db, row.session_id)!);
    },

    'sessions.messages.list': ({ params, query }, ctx) => {
      const row = load(ctx, params.agent_id, params.org_id);
      return paginate(ctx.db, {
        scope: `messages:${row.session_id}`,
        select: 'SELECT * FROM session_messages',
        where: [['session_id = ?', row.session_id]],
        order: [{ col: 'seq', dir: 'asc' }],
        first: query.first,
        after: query.after,
        map: (r: MessageRow) => toMessage(r),
      });
    },

    'sessions.messages.send': ({ params, body, principal }, ctx) =>
      sendMessage(ctx, load(ctx, params.agent_id, params.org_id), body.message, principal),

    'sessions.enterprise.messages.send': ({ params, body, principal }, ctx) =>
      sendMessage(ctx, load(ctx, params.agent_id), body.message, principal),

    'sessions.tags.get': ({ params }, ctx) => ({
      tags: JSON.parse(load(ctx, params.agent_id, params.org_id).tags) as string[],
    }),

    'sessions.tags.append': ({ params, body, principal }, ctx) =>
      setTags(ctx, load(ctx, params.agent_id, params.org_id), body.tags, principal, 'append'),

    'sessions.tags.replace': ({ params, body, principal }, ctx) =>
      setTags(ctx, load(ctx, params.agent_id, params.org_id), body.tags, principal, 'replace'),

    'sessions.insights.get': ({ params }, ctx) => {
      const row = load(ctx, params.agent_id, params.org_id);
      const counts = countMessages(ctx.db, row.session_id);
      return {
        ...toSession(row),
        num_agent_messages: counts.agent,
        num_user_messages: counts.user,
        session_size: sessionSize(ctx, row.session_id),
        analysis: row.analysis ? JSON.parse(row.analysis) : null,
        analysis_status: row.insights_status,
      };
    },

    'sessions.insights.generate': ({ params, principal }, ctx) =>
      generateInsights(ctx, load(ctx, params.agent_id, params.org_id), principal),

    'sessions.enterprise.insights.generate': ({ params, principal }, ctx) =>
      generateInsights(ctx, load(ctx, params.agent_id), principal),
  },
};

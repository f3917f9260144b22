/**
 * Starting a session in the sandbox, for the create operation and for every module that starts sessions of
 * its own (schedules, remediations): the row, its first message, its simulation plan and the audit entry.
 */
import type { z } from 'zod';
import type { CreateSessionBody } from '../../../api/operations/sessions';
import type { SessionOrigin } from '../../../api/values';
import type { Principal, SandboxContext } from '../../context';
import { checkAllowedTags, defaultTagOf } from '../org-tags';
import { newSessionPlan } from './simulation';
import { addMessage, getRow, type SessionRow } from './store';

export type CreateSessionInput = z.output<typeof CreateSessionBody>;

export interface CreateSessionOptions {
  /** Where the session came from (`api` for the create operation). */
  origin?: SessionOrigin;
  /** Audit data added to the `create_session` entry (e.g. the schedule or finding that started it). */
  auditData?: Record<string, unknown>;
}

/**
 * Creates a session in `orgId` as `principal`, inside one transaction, and answers its row. Tags are checked
 * against the organization's allowed list (422 naming a tag outside it); without tags, the session gets the
 * organization's default tag, if any.
 */
export function createSession(
  ctx: SandboxContext,
  orgId: string,
  body: CreateSessionInput,
  principal: Pick<Principal, 'service_user_id' | 'service_user_name'>,
  options: CreateSessionOptions = {},
): SessionRow {
  const id = ctx.newId('session-');
  const now = ctx.now();
  const prompt = body.prompt;
  const title = body.title?.trim() || prompt.trim().split('\n')[0]!.slice(0, 80);
  const { session_secrets, tags: given, repos, ...rest } = body;
  checkAllowedTags(ctx.db, orgId, given ?? []);
  const defaultTag = defaultTagOf(ctx.db, orgId);
  const tags = (given ?? []).length === 0 && defaultTag !== null ? [defaultTag] : given;
  ctx.db.transaction(() => {
    ctx.db
      .prepare(
        `INSERT INTO sessions (session_id, org_id, status, title, prompt, origin, agent_mode, created_at, updated_at, tags,
           user_id, service_user_id, playbook_id, repos, secret_keys, create_params, sim_next_ms, sim_steps, sim_outcome)
         VALUES (?, ?, 'new', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        orgId,
        title,
        prompt,
        options.origin ?? 'api',
        body.agent_mode ?? null,
        now,
        now,
        JSON.stringify([...new Set(tags ?? [])]),
        body.create_as_user_id ?? null,
        principal.service_user_id,
        body.playbook_id ?? body.child_playbook_id ?? null,
        JSON.stringify(repos ?? []),
        // Temporary secrets are for this session only: the sandbox keeps their keys, never their values.
        JSON.stringify((session_secrets ?? []).map((s) => ({ key: s.key, sensitive: s.sensitive }))),
        JSON.stringify(rest),
        ...Object.values(newSessionPlan(ctx)),
      );
    addMessage(ctx.db, ctx.newId('event-'), id, 'user', prompt, now);
    ctx.audit({
      action: 'create_session',
      org_id: orgId,
      principal: { service_user_id: principal.service_user_id, service_user_name: principal.service_user_name },
      user: body.create_as_user_id ? { user_id: body.create_as_user_id, user_email: '' } : null,
      data: {
        session_id: id,
        agent_mode: body.agent_mode ?? null,
        session_secret_keys: (session_secrets ?? []).map((s) => s.key),
        ...options.auditData,
      },
    });
  })();
  return getRow(ctx.db, id)!;
}

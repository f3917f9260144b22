/**
 * Safe bulk editing of an organization's git permissions (`/console/git-permissions/orgs/{org_id}/...`).
 *
 * The API's replace (PUT) swaps the whole set, so a replace built from one page, or from a set another admin
 * changed meanwhile, silently deletes permissions. Replace, clear and restore therefore go through here:
 *   1. read the complete current set, every page;
 *   2. compare its version token with the one the admin's edit started from — 409 with the difference if not;
 *   3. store the current set as the revision's previous set (before anything is written upstream);
 *   4. apply upstream: one atomic PUT (≤ 200 items), DELETE for a clear, or — only when the request allows
 *      it — per-item operations (delete, update, add) for a set larger than one PUT accepts;
 *   5. record the result (or the failure) on the revision.
 * Changes to one organization are serialized here, so two console users cannot interleave steps 1–4.
 */
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import {
  ConsoleClearRequest,
  ConsoleReplaceRequest,
  ConsoleRestoreRequest,
  diffGitPermissionSets,
  GIT_PERMISSIONS_MAX_PER_REQUEST,
  gitPermissionSetVersion,
  isEmptyDiff,
  normalizeGitPermission,
  type ConsoleGitPermissionSet,
  type GitPermission,
  type GitPermissionInput,
  type GitRevisionAction,
} from '../../../api/operations/git-permissions';
import { issuesToFieldErrors, problem, PROBLEM_CONTENT_TYPE, type FieldError } from '../../../api/problem';
import { migrate } from '../../sandbox/db';
import type { ConsoleDeps } from '../index';
import { consoleMigrations } from '../store';
import type { UpstreamClient } from '../upstream-client';
import { UpstreamProblem } from '../upstream-client';
import { createRevisionStore, gitPermissionConsoleMigrations } from './store';

consoleMigrations.push(...gitPermissionConsoleMigrations);

function reply(c: Context, status: number, detail: string, extra: Record<string, unknown> = {}): Response {
  return new Response(JSON.stringify(problem(status, detail, { instance: c.req.path, ...extra })), {
    status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE },
  });
}

class ConsoleProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let raw: unknown;
  try {
    const text = await c.req.text();
    raw = text ? JSON.parse(text) : {};
  } catch {
    throw new ConsoleProblem(422, 'The request body is not valid JSON', {
      errors: [{ loc: ['body'], msg: 'The request body is not valid JSON', type: 'json_invalid' }],
    });
  }
  const r = schema.safeParse(raw);
  if (!r.success) {
    const errors = issuesToFieldErrors('body', r.error.issues);
    throw new ConsoleProblem(422, summarize(errors), { errors });
  }
  return r.data;
}

function summarize(errors: FieldError[]): string {
  const first = errors[0];
  if (!first) return 'The request failed validation';
  const where = first.loc.filter((p) => p !== 'body').join('.');
  return `${where ? `${where}: ` : ''}${first.msg}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`;
}

/** A permission as a replace or add request carries it. */
const toInput = (p: GitPermissionInput): GitPermissionInput => normalizeGitPermission(p);

async function readCurrent(upstream: UpstreamClient, orgId: string): Promise<GitPermission[]> {
  return (await upstream.all('gitPermissions.list', { params: { org_id: orgId } })) as GitPermission[];
}

function revisionId(c: Context, name: string): number {
  const v = c.req.param(name) ?? c.req.query(name) ?? '';
  if (!/^\d{1,12}$/.test(v)) throw new ConsoleProblem(404, `Revision ${v || '(none)'} was not found`);
  return Number(v);
}

export function gitPermissionRoutes(deps: Pick<ConsoleDeps, 'upstream' | 'db'>): Hono {
  migrate(deps.db, gitPermissionConsoleMigrations);
  const store = createRevisionStore(deps.db);
  const { upstream } = deps;
  const locks = new Map<string, Promise<unknown>>();

  /** Runs changes to one organization one after another. */
  function serialized<T>(orgId: string, work: () => Promise<T>): Promise<T> {
    const prev = locks.get(orgId) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(work);
    locks.set(orgId, next);
    void next
      .finally(() => {
        if (locks.get(orgId) === next) locks.delete(orgId);
      })
      .catch(() => undefined);
    return next;
  }

  interface ChangeRequest {
    orgId: string;
    action: GitRevisionAction;
    base_version: string;
    base?: GitPermissionInput[];
    /** The set wanted after the change; null clears. */
    desired: GitPermissionInput[] | null;
    allowPerItem: boolean;
    restoredFrom: number | null;
  }

  async function applyChange(req: ChangeRequest) {
    const { orgId } = req;
    if (req.base && gitPermissionSetVersion(req.base) !== req.base_version) {
      throw new ConsoleProblem(422, 'base does not match base_version: send the set the edit started from, unchanged', {
        errors: [{ loc: ['body', 'base'], msg: 'base does not match base_version', type: 'base_mismatch' }],
      });
    }
    const desired = req.desired?.map(toInput) ?? null;
    const tooLarge = desired !== null && desired.length > GIT_PERMISSIONS_MAX_PER_REQUEST;
    if (tooLarge && !req.allowPerItem) {
      throw new ConsoleProblem(
        422,
        `This set has ${desired.length} permissions; one replace takes at most ${GIT_PERMISSIONS_MAX_PER_REQUEST}. Apply it with per-item operations (allow_per_item: true; not atomic) or make it smaller.`,
        {
          errors: [
            {
              loc: ['body', 'permissions'],
              msg: `At most ${GIT_PERMISSIONS_MAX_PER_REQUEST} permissions per replace; this set has ${desired.length}`,
              type: 'too_big',
            },
          ],
        },
      );
    }
    return serialized(orgId, async () => {
      // 1. The complete current set, every page.
      const current = await readCurrent(upstream, orgId);
      const currentVersion = gitPermissionSetVersion(current);
      // 2. The conflict check.
      if (currentVersion !== req.base_version) {
        const changes = req.base ? diffGitPermissionSets(req.base.map(toInput), current) : null;
        const what = changes
          ? `${changes.added.length} added, ${changes.removed.length} removed, ${changes.changed.length} changed`
          : 'the set differs';
        throw new ConsoleProblem(
          409,
          `The git permissions of this organization changed since the edit started (${what}). Nothing was applied.`,
          {
            base_version: req.base_version,
            current_version: currentVersion,
            current,
            changes,
          },
        );
      }
      const target = desired ?? [];
      const diff = diffGitPermissionSets(current, target);
      if (desired !== null && isEmptyDiff(diff) && current.length === target.length) {
        const result: ConsoleGitPermissionSet = {
          org_id: orgId,
          items: current,
          version: currentVersion,
          count: current.length,
        };
        return { revision: null, ...result, unchanged: true };
      }
      const method = desired === null ? 'clear' : tooLarge ? 'per_item' : 'replace';
      // 3. The previous set is stored before anything changes upstream.
      const id = store.begin({
        org_id: orgId,
        action: req.action,
        method,
        restored_from: req.restoredFrom,
        previous: current,
        previous_version: currentVersion,
        added: diff.added.length,
        removed: diff.removed.length,
        changed: diff.changed.length,
      });
      let progressed = false;
      try {
        // 4. Apply.
        let result: GitPermission[];
        if (method === 'clear') {
          await upstream.call('gitPermissions.clear', { params: { org_id: orgId } });
          result = [];
        } else if (method === 'replace') {
          result = (await upstream.call('gitPermissions.replace', {
            params: { org_id: orgId },
            body: { permissions: target },
          })) as GitPermission[];
        } else {
          for (const p of diff.removed) {
            await upstream.call('gitPermissions.delete', {
              params: { org_id: orgId, git_permission_id: (p as GitPermission).git_permission_id },
            });
            progressed = true;
          }
          for (const ch of diff.changed) {
            await upstream.call('gitPermissions.update', {
              params: { org_id: orgId, git_permission_id: (ch.before as GitPermission).git_permission_id },
              body: { read_only: ch.after.read_only ?? false },
            });
            progressed = true;
          }
          for (let i = 0; i < diff.added.length; i += GIT_PERMISSIONS_MAX_PER_REQUEST) {
            await upstream.call('gitPermissions.create', {
              params: { org_id: orgId },
              body: { permissions: diff.added.slice(i, i + GIT_PERMISSIONS_MAX_PER_REQUEST) },
            });
            progressed = true;
          }
          result = await readCurrent(upstream, orgId);
        }
        // 5. Record the result.
        const version = gitPermissionSetVersion(result);
        store.finish(id, { status: 'applied', result, result_version: version });
        return {
          revision: store.summary(orgId, id),
          org_id: orgId,
          items: result,
          version,
          count: result.length,
          unchanged: false,
        };
      } catch (err) {
        const message = err instanceof Error ? err.message : 'unknown error';
        if (progressed) {
          // Per-item apply stopped half-way: record what the set is now, so nothing is lost from view.
          const now = await readCurrent(upstream, orgId).catch(() => null);
          store.finish(id, {
            status: 'partial',
            result: now,
            result_version: now ? gitPermissionSetVersion(now) : null,
            error: message,
          });
        } else {
          store.finish(id, { status: 'failed', result: null, result_version: null, error: message });
        }
        throw err;
      }
    });
  }

  const app = new Hono();
  const base = '/console/git-permissions/orgs/:orgId';

  app.get(base, async (c) => {
    const orgId = c.req.param('orgId');
    const items = await readCurrent(upstream, orgId);
    const body: ConsoleGitPermissionSet = {
      org_id: orgId,
      items,
      version: gitPermissionSetVersion(items),
      count: items.length,
    };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });

  app.put(base, async (c) => {
    const body = await readBody(c, ConsoleReplaceRequest);
    return c.json(
      await applyChange({
        orgId: c.req.param('orgId'),
        action: 'replace',
        base_version: body.base_version,
        base: body.base,
        desired: body.permissions,
        allowPerItem: body.allow_per_item === true,
        restoredFrom: null,
      }),
    );
  });

  app.delete(base, async (c) => {
    const body = await readBody(c, ConsoleClearRequest);
    return c.json(
      await applyChange({
        orgId: c.req.param('orgId'),
        action: 'clear',
        base_version: body.base_version,
        base: body.base,
        desired: null,
        allowPerItem: false,
        restoredFrom: null,
      }),
    );
  });

  app.get(`${base}/revisions`, (c) => {
    const first = Number(c.req.query('first') ?? 50);
    const afterRaw = c.req.query('after');
    const errors: FieldError[] = [];
    if (!Number.isInteger(first) || first < 1 || first > 200)
      errors.push({ loc: ['query', 'first'], msg: 'first must be an integer from 1 to 200', type: 'range' });
    if (afterRaw !== undefined && afterRaw !== '' && !/^\d{1,12}$/.test(afterRaw))
      errors.push({ loc: ['query', 'after'], msg: 'after must be an end_cursor of this list', type: 'cursor' });
    if (errors.length) throw new ConsoleProblem(422, summarize(errors), { errors });
    const page = store.list(c.req.param('orgId'), { first, after: afterRaw ? Number(afterRaw) : undefined });
    const last = page.items[page.items.length - 1];
    return c.json(
      {
        items: page.items,
        total: page.total,
        has_next_page: page.has_next_page,
        end_cursor: page.has_next_page && last ? String(last.revision_id) : null,
      },
      200,
      { 'cache-control': 'no-store' },
    );
  });

  app.get(`${base}/revisions/diff`, (c) => {
    const orgId = c.req.param('orgId');
    const from = store.get(orgId, revisionId(c, 'from'));
    const to = store.get(orgId, revisionId(c, 'to'));
    if (!from || !to)
      throw new ConsoleProblem(
        404,
        `Revision ${!from ? c.req.query('from') : c.req.query('to')} was not found in this organization's history`,
      );
    // Each revision stands for the set it produced (its previous set when it did not complete).
    const setOf = (r: typeof from) => r.result ?? r.previous;
    const { previous: _p, result: _r, ...fromSummary } = from;
    const { previous: _p2, result: _r2, ...toSummary } = to;
    return c.json({ from: fromSummary, to: toSummary, diff: diffGitPermissionSets(setOf(from), setOf(to)) });
  });

  app.get(`${base}/revisions/:revisionId`, (c) => {
    const rev = store.get(c.req.param('orgId'), revisionId(c, 'revisionId'));
    if (!rev)
      throw new ConsoleProblem(
        404,
        `Revision ${c.req.param('revisionId')} was not found in this organization's history`,
      );
    return c.json(rev, 200, { 'cache-control': 'no-store' });
  });

  app.post(`${base}/revisions/:revisionId/restore`, async (c) => {
    const orgId = c.req.param('orgId');
    const rev = store.get(orgId, revisionId(c, 'revisionId'));
    if (!rev)
      throw new ConsoleProblem(
        404,
        `Revision ${c.req.param('revisionId')} was not found in this organization's history`,
      );
    const body = await readBody(c, ConsoleRestoreRequest);
    const set = body.set === 'result' ? rev.result : rev.previous;
    if (!set)
      throw new ConsoleProblem(
        422,
        `Revision ${rev.revision_id} has no resulting set to restore (it ${rev.status === 'failed' ? 'failed' : 'did not complete'})`,
        {
          errors: [
            {
              loc: ['body', 'set'],
              msg: 'This revision has no result; restore its previous set instead',
              type: 'no_result',
            },
          ],
        },
      );
    return c.json(
      await applyChange({
        orgId,
        action: 'restore',
        base_version: body.base_version,
        base: body.base,
        desired: set,
        allowPerItem: body.allow_per_item === true,
        restoredFrom: rev.revision_id,
      }),
    );
  });

  app.onError((err, c) => {
    if (err instanceof ConsoleProblem) return reply(c, err.status, err.detail, err.extra);
    if (err instanceof UpstreamProblem) {
      return new Response(JSON.stringify({ ...err.body, instance: c.req.path }), {
        status: err.status,
        headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...err.headers },
      });
    }
    console.error('[console] git permissions failed:', err instanceof Error ? err.message : 'unknown error');
    return reply(c, 500, 'The console server failed while changing git permissions');
  });
  return app;
}

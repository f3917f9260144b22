/**
 * Allowed session tags per organization and its default tag. Validation is on while an organization's list is
 * not empty: the sessions module asks `checkAllowedTags` on create and on tag changes (422 naming the tag), and
 * `defaultTagOf` for sessions created without tags. The seed sets lists (the seeded session tags, so seeded
 * sessions comply) on two organizations other than the first, which the tests and e2e create sessions in.
 */
import type { Db } from '../../../node/db';
import { HttpProblem, unprocessable } from '../../../node/problem-writer';
import type { Principal, SandboxContext, SandboxModule } from '../../context';
import { TAGS } from '../sessions/seed-data';

const actor = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

/** Organizations (by seed order) that get an allowed list, and the first of them a default tag. */
export const SEED_TAG_ORG_INDEXES = [3, 5] as const;

export function allowedTagsOf(db: Db, orgId: string): string[] {
  return (
    db.prepare('SELECT tag FROM org_allowed_tags WHERE org_id = ? ORDER BY position').all(orgId) as { tag: string }[]
  ).map((r) => r.tag);
}

export function defaultTagOf(db: Db, orgId: string): string | null {
  const row = db.prepare('SELECT default_tag FROM org_tag_settings WHERE org_id = ?').get(orgId) as
    { default_tag: string | null } | undefined;
  return row?.default_tag ?? null;
}

/** 422 naming every tag outside the organization's allowed list, when validation is on (a non-empty list). */
export function checkAllowedTags(db: Db, orgId: string, tags: readonly string[], field = 'tags'): void {
  const allowed = allowedTagsOf(db, orgId);
  if (allowed.length === 0) return;
  const set = new Set(allowed);
  const errors = tags.flatMap((tag, i) =>
    set.has(tag)
      ? []
      : [
          {
            loc: ['body', field, i],
            msg: `tag "${tag}" is not an allowed tag of organization ${orgId} (tag validation is on)`,
            type: 'tag_not_allowed',
          },
        ],
  );
  if (errors.length > 0) throw unprocessable(errors);
}

function writeTags(db: Db, orgId: string, tags: readonly string[]): void {
  db.prepare('DELETE FROM org_allowed_tags WHERE org_id = ?').run(orgId);
  const insert = db.prepare('INSERT INTO org_allowed_tags (org_id, position, tag) VALUES (?, ?, ?)');
  tags.forEach((t, i) => insert.run(orgId, i, t));
}

function setDefault(db: Db, orgId: string, tag: string | null): void {
  db.prepare(
    `INSERT INTO org_tag_settings (org_id, default_tag) VALUES (?, ?)
     ON CONFLICT (org_id) DO UPDATE SET default_tag = excluded.default_tag`,
  ).run(orgId, tag);
}

function changeTags(ctx: SandboxContext, principal: Principal, orgId: string, next: string[], mode: string) {
  const previous = allowedTagsOf(ctx.db, orgId);
  const def = defaultTagOf(ctx.db, orgId);
  ctx.db.transaction(() => {
    writeTags(ctx.db, orgId, next);
    const clearedDefault = def !== null && next.length > 0 && !next.includes(def);
    if (clearedDefault) setDefault(ctx.db, orgId, null);
    ctx.audit({
      action: 'update_allowed_tags',
      org_id: orgId,
      principal: actor(principal),
      data: { mode, tags: next, previous_tags: previous, ...(clearedDefault ? { cleared_default_tag: def } : {}) },
    });
  })();
  return { tags: next };
}

function changeDefault(ctx: SandboxContext, principal: Principal, orgId: string, tag: string | null) {
  const previous = defaultTagOf(ctx.db, orgId);
  ctx.db.transaction(() => {
    setDefault(ctx.db, orgId, tag);
    ctx.audit({
      action: 'update_default_tag',
      org_id: orgId,
      principal: actor(principal),
      data: { default_tag: tag, previous_default_tag: previous },
    });
  })();
  return { default_tag: tag };
}

export const orgTagsModule: SandboxModule = {
  name: 'org-tags',
  migrations: [
    {
      id: 'org-tags-001-create',
      sql: `CREATE TABLE org_allowed_tags (
        org_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        tag TEXT NOT NULL,
        PRIMARY KEY (org_id, tag)
      );
      CREATE TABLE org_tag_settings (org_id TEXT PRIMARY KEY, default_tag TEXT);`,
    },
  ],
  seed({ db, orgIds }) {
    const ids = orgIds();
    SEED_TAG_ORG_INDEXES.forEach((index, n) => {
      const orgId = ids[index];
      if (!orgId) return;
      writeTags(db, orgId, [...TAGS, ...(n === 0 ? ['compliance', 'customer-escalation'] : ['experiment'])]);
      if (n === 0) setDefault(db, orgId, 'compliance');
    });
  },
  handlers: {
    'organizations.tags.get': ({ params }, { db }) => ({ tags: allowedTagsOf(db, params.org_id) }),
    'organizations.tags.append': ({ params, body, principal }, ctx) =>
      changeTags(
        ctx,
        principal,
        params.org_id,
        [...new Set([...allowedTagsOf(ctx.db, params.org_id), ...body.tags])],
        'append',
      ),
    'organizations.tags.replace': ({ params, body, principal }, ctx) =>
      changeTags(ctx, principal, params.org_id, [...new Set(body.tags)], 'replace'),
    'organizations.tags.clear': ({ params, principal }, ctx) => changeTags(ctx, principal, params.org_id, [], 'clear'),
    'organizations.tags.remove': ({ params, principal }, ctx) => {
      const current = allowedTagsOf(ctx.db, params.org_id);
      if (!current.includes(params.tag)) {
        throw new HttpProblem(404, `Tag "${params.tag}" is not an allowed tag of organization ${params.org_id}`);
      }
      return changeTags(
        ctx,
        principal,
        params.org_id,
        current.filter((t) => t !== params.tag),
        'remove',
      );
    },
    'organizations.defaultTag.get': ({ params }, { db }) => ({ default_tag: defaultTagOf(db, params.org_id) }),
    'organizations.defaultTag.update': ({ params, body, principal }, ctx) => {
      checkAllowedTags(ctx.db, params.org_id, [body.tag], 'tag');
      return changeDefault(ctx, principal, params.org_id, body.tag);
    },
    'organizations.defaultTag.clear': ({ params, principal }, ctx) =>
      changeDefault(ctx, principal, params.org_id, null),
  },
};

/**
 * Playbooks in the sandbox: enterprise playbooks (usable in every organization) and each organization's own,
 * the enterprise list (every playbook) and the organization list (its own), get / create / update (PUT) /
 * delete, each mutation audited. A macro is unique among the playbooks an organization can use (409).
 */
import type { Playbook, PlaybookBody } from '../../../api/operations/playbooks';
import type { Db } from '../../../node/db';
import { HttpProblem, notFound } from '../../../node/problem-writer';
import type { Principal, SandboxContext, SandboxModule, SeedContext } from '../../context';
import { paginate } from '../../cursor';
import { seedActors } from '../members/seed';
import { ENTERPRISE_PLAYBOOKS, ORG_PLAYBOOKS, type PlaybookTemplate } from './seed-data';

interface PlaybookRow extends Record<string, unknown> {
  playbook_id: string;
  title: string;
  body: string;
  macro: string | null;
  access_type: 'enterprise' | 'org';
  org_id: string | null;
  created_by: string;
  updated_by: string;
  created_at: number;
  updated_at: number;
  structured_output_schema: string | null;
  sort_title: string;
}

const SELECT = 'SELECT *, lower(title) AS sort_title FROM playbooks';

const toPlaybook = (r: PlaybookRow): Playbook => ({
  playbook_id: r.playbook_id,
  title: r.title,
  body: r.body,
  macro: r.macro,
  access_type: r.access_type,
  org_id: r.org_id,
  created_by: r.created_by,
  updated_by: r.updated_by,
  created_at: r.created_at,
  updated_at: r.updated_at,
  structured_output_schema: r.structured_output_schema
    ? (JSON.parse(r.structured_output_schema) as Record<string, unknown>)
    : null,
});

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function listPlaybooks(
  db: Db,
  scope: string,
  base: Array<[string, ...(string | number | null)[]]>,
  q: { first: number; after?: string | null; search?: string | null; access_type?: 'enterprise' | 'org' | null },
) {
  const where = [...base];
  if (q.access_type) where.push(['access_type = ?', q.access_type]);
  const term = q.search?.trim().toLowerCase();
  if (term) {
    const like = `%${escapeLike(term)}%`;
    where.push([
      `(lower(title) LIKE ? ESCAPE '\\' OR lower(coalesce(macro, '')) LIKE ? ESCAPE '\\' OR lower(body) LIKE ? ESCAPE '\\')`,
      like,
      like,
      like,
    ]);
  }
  return paginate<PlaybookRow, Playbook>(db, {
    scope,
    select: `SELECT * FROM (${SELECT})`,
    where,
    order: [
      { col: 'sort_title', dir: 'asc' },
      { col: 'playbook_id', dir: 'asc' },
    ],
    first: q.first,
    after: q.after,
    map: toPlaybook,
  });
}

/** The playbook; an organization's endpoints see only that organization's own playbooks (404 otherwise). */
function getPlaybook(db: Db, playbookId: string, orgId?: string): PlaybookRow {
  const row = db.prepare(`${SELECT} WHERE playbook_id = ?`).get(playbookId) as PlaybookRow | undefined;
  if (!row || (orgId !== undefined && (row.access_type !== 'org' || row.org_id !== orgId))) {
    throw notFound('Playbook', playbookId);
  }
  return row;
}

/**
 * A playbook a session or schedule of `orgId` may use: an enterprise playbook or one of that organization's.
 * Undefined when there is none.
 */
export function usablePlaybook(
  db: Db,
  playbookId: string,
  orgId: string,
): { playbook_id: string; title: string } | undefined {
  return db
    .prepare(
      `SELECT playbook_id, title FROM playbooks WHERE playbook_id = ? AND (access_type = 'enterprise' OR org_id = ?)`,
    )
    .get(playbookId, orgId) as { playbook_id: string; title: string } | undefined;
}

/** A macro must be unique among the playbooks one organization can use: 409 naming the playbook holding it. */
function checkMacro(db: Db, macro: string | null, orgId: string | null, exceptId: string | null): void {
  if (!macro) return;
  const clash = db
    .prepare(
      `SELECT playbook_id, title FROM playbooks WHERE lower(macro) = lower(?) AND playbook_id IS NOT ?
       AND (? IS NULL OR access_type = 'enterprise' OR org_id = ?)`,
    )
    .get(macro, exceptId, orgId, orgId) as { playbook_id: string; title: string } | undefined;
  if (clash) {
    // `errors` is for 422 only (spec, Errors): the conflict is said in `detail`.
    throw new HttpProblem(
      409,
      `Macro ${macro} is already used by the playbook “${clash.title}” (${clash.playbook_id})`,
    );
  }
}

const schemaText = (b: PlaybookBody) =>
  b.structured_output_schema ? JSON.stringify(b.structured_output_schema) : null;

function createPlaybook(ctx: SandboxContext, body: PlaybookBody, orgId: string | null, principal: Principal) {
  const { db } = ctx;
  const macro = body.macro ?? null;
  checkMacro(db, macro, orgId, null);
  const id = ctx.newId('playbook-');
  const now = ctx.now();
  db.prepare(
    `INSERT INTO playbooks (playbook_id, title, body, macro, access_type, org_id, created_by, updated_by, created_at, updated_at, structured_output_schema)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    body.title.trim(),
    body.body,
    macro,
    orgId === null ? 'enterprise' : 'org',
    orgId,
    principal.service_user_id,
    principal.service_user_id,
    now,
    now,
    schemaText(body),
  );
  const playbook = toPlaybook(getPlaybook(db, id));
  ctx.audit({
    action: 'create_playbook',
    org_id: orgId,
    principal,
    data: { playbook_id: id, title: playbook.title, access_type: playbook.access_type, macro },
  });
  return playbook;
}

function updatePlaybook(
  ctx: SandboxContext,
  playbookId: string,
  body: PlaybookBody,
  orgId: string | undefined,
  principal: Principal,
) {
  const { db } = ctx;
  const current = getPlaybook(db, playbookId, orgId);
  const macro = body.macro ?? null;
  checkMacro(db, macro, current.org_id, playbookId);
  db.prepare(
    `UPDATE playbooks SET title = ?, body = ?, macro = ?, structured_output_schema = ?, updated_by = ?, updated_at = ?
     WHERE playbook_id = ?`,
  ).run(
    body.title.trim(),
    body.body,
    macro,
    schemaText(body),
    principal.service_user_id,
    Math.max(ctx.now(), current.updated_at),
    playbookId,
  );
  const playbook = toPlaybook(getPlaybook(db, playbookId));
  ctx.audit({
    action: 'update_playbook',
    org_id: current.org_id,
    principal,
    data: {
      playbook_id: playbookId,
      title: playbook.title,
      access_type: playbook.access_type,
      changed: (['title', 'body', 'macro'] as const).filter((k) => current[k] !== playbook[k]),
    },
  });
  return playbook;
}

function deletePlaybook(ctx: SandboxContext, playbookId: string, orgId: string | undefined, principal: Principal) {
  const row = getPlaybook(ctx.db, playbookId, orgId);
  ctx.db.prepare('DELETE FROM playbooks WHERE playbook_id = ?').run(playbookId);
  ctx.audit({
    action: 'delete_playbook',
    org_id: row.org_id,
    principal,
    data: { playbook_id: playbookId, title: row.title, access_type: row.access_type },
  });
  return toPlaybook(row);
}

function seedPlaybooks(ctx: SeedContext): void {
  const { db, rng } = ctx;
  const t = ctx.now();
  const actors = seedActors(db);
  const people = actors?.users.map((u) => u.user_id) ?? ['service-user-sandbox-admin'];
  const insert = db.prepare(
    `INSERT OR IGNORE INTO playbooks (playbook_id, title, body, macro, access_type, org_id, created_by, updated_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const add = (tpl: PlaybookTemplate, orgId: string | null) => {
    const created = t - rng.int(20, 500) * 86_400 - rng.int(0, 86_000);
    const edited = rng.chance(0.5);
    const author = rng.pick(people);
    insert.run(
      tpl.id ?? `playbook-${rng.hex(12)}`,
      tpl.title,
      tpl.body,
      tpl.macro ?? null,
      orgId === null ? 'enterprise' : 'org',
      orgId,
      author,
      edited ? rng.pick(people) : author,
      created,
      edited ? Math.min(t - 600, created + rng.int(1, 120) * 86_400) : created,
    );
  };
  for (const tpl of ENTERPRISE_PLAYBOOKS) add(tpl, null);
  ctx.orgIds().forEach((orgId, i) => {
    for (const tpl of rng.sample(ORG_PLAYBOOKS, 2 + (i % 3))) add(tpl, orgId);
  });
  db.prepare(`INSERT OR REPLACE INTO sandbox_meta (key, value) VALUES ('playbooks_seeded', ?)`).run(String(t));
}

export const playbooksModule: SandboxModule = {
  name: 'playbooks',
  migrations: [
    {
      id: 'playbooks-001-create',
      sql: `CREATE TABLE playbooks (
        playbook_id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        body TEXT NOT NULL,
        macro TEXT,
        access_type TEXT NOT NULL CHECK (access_type IN ('enterprise', 'org')),
        org_id TEXT,
        created_by TEXT NOT NULL,
        updated_by TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        structured_output_schema TEXT
      );
      CREATE INDEX playbooks_org ON playbooks (org_id, access_type);`,
    },
  ],
  seed: seedPlaybooks,
  // A store seeded before playbooks existed gets them at its next start.
  ensure(ctx) {
    if (!ctx.db.prepare(`SELECT 1 FROM sandbox_meta WHERE key = 'playbooks_seeded'`).get()) seedPlaybooks(ctx);
  },
  handlers: {
    'playbooks.enterprise.list': ({ query }, { db }) => listPlaybooks(db, 'playbooks', [], query),
    'playbooks.list': ({ params, query }, { db }) =>
      listPlaybooks(db, `playbooks:${params.org_id}`, [["access_type = 'org'"], ['org_id = ?', params.org_id]], query),
    'playbooks.enterprise.create': ({ body, principal }, ctx) => createPlaybook(ctx, body, null, principal),
    'playbooks.create': ({ params, body, principal }, ctx) => createPlaybook(ctx, body, params.org_id, principal),
    'playbooks.enterprise.get': ({ params }, { db }) => toPlaybook(getPlaybook(db, params.playbook_id)),
    'playbooks.get': ({ params }, { db }) => toPlaybook(getPlaybook(db, params.playbook_id, params.org_id)),
    'playbooks.enterprise.update': ({ params, body, principal }, ctx) =>
      updatePlaybook(ctx, params.playbook_id, body, undefined, principal),
    'playbooks.update': ({ params, body, principal }, ctx) =>
      updatePlaybook(ctx, params.playbook_id, body, params.org_id, principal),
    'playbooks.enterprise.delete': ({ params, principal }, ctx) =>
      deletePlaybook(ctx, params.playbook_id, undefined, principal),
    'playbooks.delete': ({ params, principal }, ctx) =>
      deletePlaybook(ctx, params.playbook_id, params.org_id, principal),
  },
};

/**
 * Git permissions and git connections in the sandbox: seeded connections of several provider types with
 * hundreds of repositories in groups, and each organization's permission set. Replace is validated item by
 * item and applied atomically; every mutation appends an `update_git_permission` audit-log entry.
 */
import {
  gitPermissionKey,
  type GitConnection,
  type GitConnectionRepository,
  type GitPermission,
  type GitPermissionInput,
} from '../../../api/git-permissions/resources';
import { validateGitPermissionSet } from '../../../api/git-permissions/rules';
import type { FieldError } from '../../../api/problem';
import type { Principal, SandboxContext, SandboxModule } from '../../context';
import { paginate } from '../../cursor';
import type { Db } from '../../../node/db';
import { notFound, unprocessable } from '../../../node/problem-writer';
import { LANGUAGES, PERMISSIONS_PER_ORG, REPO_SUFFIXES, REPO_WORDS, SEED_CONNECTIONS } from './seed-data';

interface PermissionRow extends Record<string, unknown> {
  seq: number;
  git_permission_id: string;
  org_id: string;
  git_connection_id: string;
  repo_path: string | null;
  prefix_path: string | null;
  group_prefix: string | null;
  read_only: number;
  created_at: number;
}

interface ConnectionRow extends Record<string, unknown> {
  git_connection_id: string;
  name: string | null;
  host: string;
  git_provider_type: string;
  created_at: number;
}

interface RepositoryRow extends Record<string, unknown> {
  provider_repository_id: string;
  git_connection_id: string;
  git_connection_host: string;
  repo_name: string;
  repo_path: string;
  repo_description: string | null;
  repo_language: string | null;
  last_updated_at: number | null;
}

const toPermission = (r: PermissionRow): GitPermission => ({
  git_permission_id: r.git_permission_id,
  git_connection_id: r.git_connection_id,
  created_at: r.created_at,
  repo_path: r.repo_path,
  prefix_path: r.prefix_path,
  group_prefix: r.group_prefix,
  read_only: r.read_only === 1,
});

const toConnection = (r: ConnectionRow): GitConnection => ({
  git_connection_id: r.git_connection_id,
  name: r.name,
  host: r.host,
  git_provider_type: r.git_provider_type,
  created_at: r.created_at,
});

const toRepository = (r: RepositoryRow): GitConnectionRepository => ({
  provider_repository_id: r.provider_repository_id,
  git_connection_id: r.git_connection_id,
  git_connection_host: r.git_connection_host,
  repo_name: r.repo_name,
  repo_path: r.repo_path,
  repo_description: r.repo_description,
  repo_language: r.repo_language,
  last_updated_at: r.last_updated_at,
});

/** "" and absent both mean "not set"; the store keeps null. */
const orNull = (v: string | null | undefined): string | null => (typeof v === 'string' && v !== '' ? v : null);

function orgPermissions(db: Db, orgId: string): PermissionRow[] {
  return db.prepare('SELECT * FROM git_permissions WHERE org_id = ? ORDER BY seq').all(orgId) as PermissionRow[];
}

function connectionIds(db: Db): Set<string> {
  return new Set(
    (db.prepare('SELECT git_connection_id FROM git_connections').all() as { git_connection_id: string }[]).map(
      (r) => r.git_connection_id,
    ),
  );
}

/** The checks that need the store: every connection must exist. Shape, matcher and duplicate rules ran in the dispatcher. */
function checkConnections(db: Db, items: readonly GitPermissionInput[]): void {
  const errors: FieldError[] = validateGitPermissionSet(items, { connectionIds: connectionIds(db) }).filter(
    (e) => e.type === 'unknown_git_connection',
  );
  if (errors.length) throw unprocessable(errors);
}

function insertPermission(
  ctx: SandboxContext,
  orgId: string,
  item: GitPermissionInput,
  createdAt: number,
): PermissionRow {
  const id = ctx.newId('gitperm-');
  ctx.db
    .prepare(
      `INSERT INTO git_permissions (git_permission_id, org_id, git_connection_id, repo_path, prefix_path, group_prefix, read_only, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      orgId,
      item.git_connection_id,
      orNull(item.repo_path),
      orNull(item.prefix_path),
      orNull(item.group_prefix),
      item.read_only ? 1 : 0,
      createdAt,
    );
  return ctx.db.prepare('SELECT * FROM git_permissions WHERE git_permission_id = ?').get(id) as PermissionRow;
}

function audit(ctx: SandboxContext, orgId: string, principal: Principal, data: Record<string, unknown>): void {
  ctx.audit({ action: 'update_git_permission', org_id: orgId, principal, data: { org_id: orgId, ...data } });
}

function findPermission(db: Db, orgId: string, id: string): PermissionRow {
  const row = db.prepare('SELECT * FROM git_permissions WHERE org_id = ? AND git_permission_id = ?').get(orgId, id) as
    PermissionRow | undefined;
  if (!row) throw notFound('Git permission', id);
  return row;
}

export const gitPermissionsModule: SandboxModule = {
  name: 'git-permissions',
  migrations: [
    {
      id: 'git-permissions-001-create',
      sql: `CREATE TABLE git_connections (
        git_connection_id TEXT PRIMARY KEY,
        name TEXT,
        host TEXT NOT NULL,
        git_provider_type TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX git_connections_created ON git_connections (created_at, git_connection_id);
      CREATE TABLE git_repositories (
        provider_repository_id TEXT PRIMARY KEY,
        git_connection_id TEXT NOT NULL REFERENCES git_connections (git_connection_id),
        git_connection_host TEXT NOT NULL,
        repo_name TEXT NOT NULL,
        repo_path TEXT NOT NULL,
        repo_description TEXT,
        repo_language TEXT,
        last_updated_at INTEGER
      );
      CREATE INDEX git_repositories_path ON git_repositories (git_connection_id, repo_path, provider_repository_id);
      CREATE TABLE git_permissions (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        git_permission_id TEXT NOT NULL UNIQUE,
        org_id TEXT NOT NULL,
        git_connection_id TEXT NOT NULL,
        repo_path TEXT,
        prefix_path TEXT,
        group_prefix TEXT,
        read_only INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX git_permissions_org ON git_permissions (org_id, seq);`,
    },
  ],

  seed({ db, rng, now, orgIds }) {
    const t = now();
    const insertConn = db.prepare(
      'INSERT INTO git_connections (git_connection_id, name, host, git_provider_type, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    const insertRepo = db.prepare(
      `INSERT INTO git_repositories (provider_repository_id, git_connection_id, git_connection_host, repo_name, repo_path, repo_description, repo_language, last_updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // Everything a permission can point at, per connection: repositories, groups and a few path prefixes.
    const targets: Array<{ connection: string; repos: string[]; groups: readonly string[]; prefixes: string[] }> = [];
    SEED_CONNECTIONS.forEach((c, ci) => {
      const id = `gitconn-${rng.hex(12)}`;
      insertConn.run(id, c.name, c.host, c.git_provider_type, t - (800 - ci * 60) * 86_400);
      const paths = new Set<string>();
      const repos: string[] = [];
      let guard = 0;
      while (repos.length < c.repositories && guard++ < c.repositories * 50) {
        const group = rng.pick(c.groups);
        const name = `${rng.pick(REPO_WORDS)}${rng.pick(REPO_SUFFIXES)}`;
        const path = `${group}/${name}`;
        if (paths.has(path)) continue;
        paths.add(path);
        repos.push(path);
        insertRepo.run(
          String(100_000 + ci * 10_000 + repos.length),
          id,
          c.host,
          name,
          path,
          rng.chance(0.8) ? `${name.replace(/-/g, ' ')} for ${group.split('/').pop()}` : null,
          rng.chance(0.9) ? rng.pick(LANGUAGES) : null,
          t - rng.int(0, 400) * 86_400 - rng.int(0, 86_000),
        );
      }
      const prefixes = [
        ...new Set(
          repos.map((p) => p.slice(0, p.lastIndexOf('/') + 1 + Math.min(3, p.length - p.lastIndexOf('/') - 1))),
        ),
      ];
      targets.push({ connection: id, repos, groups: c.groups, prefixes });
    });

    const insertPerm = db.prepare(
      `INSERT INTO git_permissions (git_permission_id, org_id, git_connection_id, repo_path, prefix_path, group_prefix, read_only, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    orgIds().forEach((orgId, oi) => {
      const count = PERMISSIONS_PER_ORG[oi] ?? rng.int(5, 30);
      const keys = new Set<string>();
      const items: GitPermissionInput[] = [];
      let guard = 0;
      while (items.length < count && guard++ < count * 50) {
        const target = rng.pick(targets);
        const roll = rng.next();
        const item: GitPermissionInput =
          roll < 0.75
            ? { git_connection_id: target.connection, repo_path: rng.pick(target.repos) }
            : roll < 0.9
              ? { git_connection_id: target.connection, group_prefix: rng.pick(target.groups) }
              : { git_connection_id: target.connection, prefix_path: rng.pick(target.prefixes) };
        const key = gitPermissionKey(item);
        if (keys.has(key)) continue;
        keys.add(key);
        items.push({ ...item, read_only: rng.chance(0.3) });
      }
      // Oldest first, so the list's order (insertion) is also chronological.
      let created = t - rng.int(200, 400) * 86_400;
      for (const item of items) {
        created += rng.int(60, 3 * 86_400);
        insertPerm.run(
          `gitperm-${rng.hex(16)}`,
          orgId,
          item.git_connection_id,
          orNull(item.repo_path),
          orNull(item.prefix_path),
          orNull(item.group_prefix),
          item.read_only ? 1 : 0,
          Math.min(created, t),
        );
      }
    });
  },

  handlers: {
    'gitPermissions.list': ({ params, query }, { db }) =>
      paginate<PermissionRow, GitPermission>(db, {
        scope: `git-permissions:${params.org_id}`,
        select: 'SELECT * FROM git_permissions',
        where: [['org_id = ?', params.org_id]],
        order: [{ col: 'seq', dir: 'asc' }],
        first: query.first,
        after: query.after,
        map: toPermission,
      }),

    'gitPermissions.replace': ({ params, body, principal }, ctx) => {
      const { db } = ctx;
      checkConnections(db, body.permissions);
      const orgId = params.org_id;
      // All or nothing: every check ran above; the writes happen in one transaction.
      const result = db.transaction(() => {
        const existing = new Map(orgPermissions(db, orgId).map((r) => [gitPermissionKey(toPermission(r)), r]));
        const keep = new Set<string>();
        const out: PermissionRow[] = [];
        let added = 0;
        let changed = 0;
        const t = ctx.now();
        for (const item of body.permissions) {
          const key = gitPermissionKey(item);
          const row = existing.get(key);
          if (row) {
            keep.add(key);
            if ((row.read_only === 1) !== item.read_only) {
              db.prepare('UPDATE git_permissions SET read_only = ? WHERE seq = ?').run(item.read_only ? 1 : 0, row.seq);
              changed++;
            }
            out.push({ ...row, read_only: item.read_only ? 1 : 0 });
          } else {
            out.push(insertPermission(ctx, orgId, item, t));
            added++;
          }
        }
        let removed = 0;
        for (const [key, row] of existing) {
          if (keep.has(key)) continue;
          db.prepare('DELETE FROM git_permissions WHERE seq = ?').run(row.seq);
          removed++;
        }
        audit(ctx, orgId, principal, { operation: 'replace', count: out.length, added, removed, changed });
        return out;
      })();
      return result.map(toPermission);
    },

    'gitPermissions.create': ({ params, body, principal }, ctx) => {
      const { db } = ctx;
      checkConnections(db, body.permissions);
      const orgId = params.org_id;
      return db.transaction(() => {
        const existing = new Map(orgPermissions(db, orgId).map((r) => [gitPermissionKey(toPermission(r)), r]));
        const errors: FieldError[] = [];
        body.permissions.forEach((item, i) => {
          const row = existing.get(gitPermissionKey(item));
          if (row) {
            const field =
              (['repo_path', 'prefix_path', 'group_prefix'] as const).find((f) => orNull(item[f]) !== null) ??
              'repo_path';
            errors.push({
              loc: ['body', 'permissions', i, field],
              msg: `Already granted by ${row.git_permission_id}: same connection and ${field}`,
              type: 'duplicate',
            });
          }
        });
        if (errors.length) throw unprocessable(errors);
        const t = ctx.now();
        const out = body.permissions.map((item) => insertPermission(ctx, orgId, item, t));
        audit(ctx, orgId, principal, { operation: 'create', count: out.length, added: out.length });
        return out.map(toPermission);
      })();
    },

    'gitPermissions.clear': ({ params, principal }, ctx) => {
      const { db } = ctx;
      return db.transaction(() => {
        const removed = orgPermissions(db, params.org_id);
        db.prepare('DELETE FROM git_permissions WHERE org_id = ?').run(params.org_id);
        audit(ctx, params.org_id, principal, { operation: 'clear', removed: removed.length });
        return removed.map(toPermission);
      })();
    },

    'gitPermissions.update': ({ params, body, principal }, ctx) => {
      const row = findPermission(ctx.db, params.org_id, params.git_permission_id);
      if (body.read_only === undefined || body.read_only === null) return toPermission(row);
      ctx.db.prepare('UPDATE git_permissions SET read_only = ? WHERE seq = ?').run(body.read_only ? 1 : 0, row.seq);
      audit(ctx, params.org_id, principal, {
        operation: 'update',
        git_permission_id: row.git_permission_id,
        read_only: body.read_only,
      });
      return toPermission({ ...row, read_only: body.read_only ? 1 : 0 });
    },

    'gitPermissions.delete': ({ params, principal }, ctx) => {
      const row = findPermission(ctx.db, params.org_id, params.git_permission_id);
      ctx.db.prepare('DELETE FROM git_permissions WHERE seq = ?').run(row.seq);
      audit(ctx, params.org_id, principal, { operation: 'delete', git_permission_id: row.git_permission_id });
      return toPermission(row);
    },

    'gitConnections.list': ({ query }, { db }) =>
      paginate<ConnectionRow, GitConnection>(db, {
        scope: 'git-connections',
        select: 'SELECT * FROM git_connections',
        order: [
          { col: 'created_at', dir: 'asc' },
          { col: 'git_connection_id', dir: 'asc' },
        ],
        first: query.first,
        after: query.after,
        map: toConnection,
      }),

    'gitConnections.repositories.list': ({ params, query }, { db }) => {
      const exists = db.prepare('SELECT 1 FROM git_connections WHERE git_connection_id = ?').get(params.connection_id);
      if (!exists) throw notFound('Git connection', params.connection_id);
      const where: Array<[string, ...Array<string | number | null>]> = [
        ['git_connection_id = ?', params.connection_id],
      ];
      const filter = query.filter_name?.trim();
      if (filter) {
        const like = `%${filter.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        where.push([`(lower(repo_name) LIKE ? ESCAPE '\\' OR lower(repo_path) LIKE ? ESCAPE '\\')`, like, like]);
      }
      return paginate<RepositoryRow, GitConnectionRepository>(db, {
        scope: `git-repositories:${params.connection_id}:${filter ?? ''}`,
        select: 'SELECT * FROM git_repositories',
        where,
        order: [
          { col: 'repo_path', dir: 'asc' },
          { col: 'provider_repository_id', dir: 'asc' },
        ],
        first: query.first,
        after: query.after,
        map: toRepository,
      });
    },
  },
};

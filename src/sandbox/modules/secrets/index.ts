/**
 * Organization secrets in the sandbox: list (newest first, cursor pages), create and delete, each mutation
 * audited. Values are sealed at rest (see store.ts) and never leave the store: no row mapping reads them. A key
 * is unique per organization (409); `dictionary` secrets exist in the seed (older ones) but cannot be created.
 */
import { randomBytes } from 'node:crypto';
import type { Secret } from '../../../api/operations/secrets';
import type { Db } from '../../../node/db';
import { HttpProblem, notFound } from '../../../node/problem-writer';
import type { Principal, SandboxModule, SeedContext } from '../../context';
import { paginate } from '../../cursor';
import { sealSecretValue } from './store';

interface SecretRow extends Record<string, unknown> {
  secret_id: string;
  org_id: string;
  secret_type: string;
  key: string;
  note: string | null;
  is_sensitive: number;
  access_type: string;
  created_by: string;
  created_by_name: string | null;
  created_at: number;
  updated_at: number | null;
  updated_by: string | null;
}

/** Every column but the sealed value: what a record is made of. */
const COLUMNS = `secret_id, org_id, secret_type, key, note, is_sensitive, access_type, created_by, created_by_name,
  created_at, updated_at, updated_by`;

const toSecret = (r: SecretRow): Secret => ({
  secret_id: r.secret_id,
  secret_type: r.secret_type,
  key: r.key,
  note: r.note,
  is_sensitive: r.is_sensitive === 1,
  access_type: r.access_type,
  created_by: r.created_by,
  created_by_name: r.created_by_name,
  created_at: r.created_at,
  updated_at: r.updated_at,
  updated_by: r.updated_by,
});

const actor = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

function getSecret(db: Db, orgId: string, secretId: string): SecretRow {
  const row = db.prepare(`SELECT ${COLUMNS} FROM secrets WHERE org_id = ? AND secret_id = ?`).get(orgId, secretId) as
    SecretRow | undefined;
  if (!row) throw notFound('Secret', secretId);
  return row;
}

function insertSecret(
  db: Db,
  row: Pick<
    SecretRow,
    | 'secret_id'
    | 'org_id'
    | 'secret_type'
    | 'key'
    | 'note'
    | 'is_sensitive'
    | 'access_type'
    | 'created_by'
    | 'created_by_name'
    | 'created_at'
  > & { value: string },
): void {
  db.prepare(
    `INSERT INTO secrets (secret_id, org_id, secret_type, key, note, is_sensitive, access_type, created_by,
       created_by_name, created_at, updated_at, updated_by, value_sealed)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?)`,
  ).run(
    row.secret_id,
    row.org_id,
    row.secret_type,
    row.key,
    row.note,
    row.is_sensitive,
    row.access_type,
    row.created_by,
    row.created_by_name,
    row.created_at,
    sealSecretValue(db, row.secret_id, row.value),
  );
}

const SEED: Array<{ type: string; key: string; note: string | null; sensitive?: boolean }> = [
  { type: 'key-value', key: 'GITHUB_TOKEN', note: 'Fine-grained token for the bot account; repo read/write.' },
  { type: 'key-value', key: 'NPM_TOKEN', note: 'Publishing to the internal registry.' },
  { type: 'key-value', key: 'SENTRY_DSN', note: null, sensitive: false },
  { type: 'cookie', key: 'staging.example.com', note: 'Session cookie of the QA user on staging.' },
  { type: 'totp', key: 'AWS_CONSOLE_MFA', note: 'MFA seed of the read-only console user.' },
  { type: 'key-value', key: 'DATABASE_URL_READONLY', note: 'Replica, read-only role.' },
  { type: 'cookie', key: 'grafana.internal', note: null },
  { type: 'dictionary', key: 'LEGACY_DEPLOY_ENV', note: 'Created before dictionaries were deprecated.' },
];

function seed(ctx: SeedContext): void {
  const creators = ctx.db
    .prepare(`SELECT user_id AS id, coalesce(name, email) AS name FROM users ORDER BY created_at, user_id LIMIT 12`)
    .all() as Array<{ id: string; name: string }>;
  const fallback = { id: 'service-user-sandbox-admin', name: 'Sandbox Admin' };
  const now = ctx.now();
  for (const orgId of ctx.orgIds()) {
    const count = ctx.rng.int(4, SEED.length);
    // The dictionary secret is in every organization that has more than a few: the read side must show it.
    const picked = ctx.rng.sample(SEED.slice(0, -1), count - 1).concat(count > 4 ? [SEED.at(-1)!] : []);
    picked.forEach((s, i) => {
      const by = creators.length > 0 ? ctx.rng.pick(creators) : fallback;
      insertSecret(ctx.db, {
        secret_id: `secret-${ctx.rng.hex(16)}`,
        org_id: orgId,
        secret_type: s.type,
        key: s.key,
        note: s.note,
        is_sensitive: s.sensitive === false ? 0 : 1,
        access_type: 'org',
        created_by: by.id,
        created_by_name: by.name,
        created_at: now - ctx.rng.int(2, 400) * 86_400 - i * 3_600,
        // Seeded values are random: nobody knows them, as with real secrets.
        value: randomBytes(24).toString('base64url'),
      });
    });
  }
}

export const secretsModule: SandboxModule = {
  name: 'secrets',
  migrations: [
    {
      id: 'secrets-001-create',
      sql: `CREATE TABLE secrets (
        secret_id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL,
        secret_type TEXT NOT NULL,
        key TEXT NOT NULL,
        note TEXT,
        is_sensitive INTEGER NOT NULL DEFAULT 1,
        access_type TEXT NOT NULL DEFAULT 'org',
        created_by TEXT NOT NULL,
        created_by_name TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER,
        updated_by TEXT,
        -- AES-256-GCM: iv, tag, ciphertext (store.ts). Never selected by a handler.
        value_sealed BLOB NOT NULL
      );
      CREATE UNIQUE INDEX secrets_org_key ON secrets (org_id, key);
      CREATE INDEX secrets_org_created ON secrets (org_id, created_at, secret_id);`,
    },
  ],
  seed,
  // A store seeded before this module existed gets its secrets once.
  ensure(ctx) {
    const any = ctx.db.prepare('SELECT 1 FROM secrets LIMIT 1').get();
    const orgs = ctx.orgIds();
    if (
      !any &&
      orgs.length > 0 &&
      ctx.db.prepare(`SELECT value FROM sandbox_meta WHERE key = 'secrets_seeded'`).get() === undefined
    ) {
      seed(ctx);
    }
    ctx.db.prepare(`INSERT OR IGNORE INTO sandbox_meta (key, value) VALUES ('secrets_seeded', '1')`).run();
  },
  handlers: {
    'secrets.list': ({ params, query }, { db }) =>
      paginate<SecretRow, Secret>(db, {
        scope: `secrets:${params.org_id}`,
        select: `SELECT ${COLUMNS} FROM secrets`,
        where: [['org_id = ?', params.org_id]],
        order: [
          { col: 'created_at', dir: 'desc' },
          { col: 'secret_id', dir: 'desc' },
        ],
        first: query.first,
        after: query.after,
        map: toSecret,
      }),
    'secrets.create': ({ params, body, principal }, ctx) => {
      const { db } = ctx;
      const taken = db
        .prepare('SELECT secret_id FROM secrets WHERE org_id = ? AND key = ?')
        .get(params.org_id, body.key);
      if (taken) {
        throw new HttpProblem(409, `A secret with key ${body.key} already exists in organization ${params.org_id}`, {
          key: body.key,
        });
      }
      const secretId = ctx.newId('secret-');
      db.transaction(() => {
        insertSecret(db, {
          secret_id: secretId,
          org_id: params.org_id,
          secret_type: body.type,
          key: body.key,
          note: body.note?.trim() ? body.note : null,
          is_sensitive: body.is_sensitive ? 1 : 0,
          access_type: 'org',
          created_by: principal.service_user_id,
          created_by_name: principal.service_user_name,
          created_at: ctx.now(),
          value: body.value,
        });
        ctx.audit({
          action: 'create_secret',
          org_id: params.org_id,
          principal: actor(principal),
          // Never the value.
          data: { secret_id: secretId, key: body.key, secret_type: body.type, is_sensitive: body.is_sensitive },
        });
      })();
      return toSecret(getSecret(db, params.org_id, secretId));
    },
    'secrets.delete': ({ params, principal }, ctx) => {
      const row = getSecret(ctx.db, params.org_id, params.secret_id);
      ctx.db.transaction(() => {
        ctx.db.prepare('DELETE FROM secrets WHERE secret_id = ?').run(row.secret_id);
        ctx.audit({
          action: 'delete_secret',
          org_id: params.org_id,
          principal: actor(principal),
          data: { secret_id: row.secret_id, key: row.key, secret_type: row.secret_type },
        });
      })();
      return toSecret(row);
    },
  },
};

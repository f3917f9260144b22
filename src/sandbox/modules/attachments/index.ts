/**
 * Attachments in the sandbox. Upload streams a multipart body into the data directory (memory for ':memory:')
 * with the size limit enforced while streaming (413), and answers `{attachment_id, name, url}`; a file name with
 * a control or text-direction character is refused (422), and a refused body is read to its end first (bounded),
 * so a proxy streaming it gets the refusal rather than a reset connection. Download answers, as the real service
 * does, a redirect to a short-lived signed URL (HMAC-SHA256 over id, name and expiry; 60 s) that the sandbox
 * serves itself at `/attachment-files/…`, outside `/v3`, without a credential. Uploads are audited; the seed puts
 * a few files in every organization and attaches them to some of its sessions.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  ATTACHMENT_FIELD,
  ATTACHMENT_LIMITS,
  attachmentNameRefusal,
  cleanAttachmentName,
  type UploadedAttachment,
} from '../../../api/operations/attachments';
import type { Db } from '../../../node/db';
import { readSingleFile } from '../../../node/multipart';
import { HttpProblem, problemResponse, unprocessable } from '../../../node/problem-writer';
import type { SandboxContext, SandboxModule, SeedContext } from '../../context';
import { beginFile, putFile, readFile, type PendingFile } from './store';

/** How long a signed download URL works. */
export const SIGNED_URL_TTL_SECONDS = 60;
/** Where the sandbox serves signed downloads (outside `/v3`: no credential, no dispatcher). */
export const SIGNED_PATH_PREFIX = '/attachment-files/';
/** The API base written into seeded attachment URLs (the console reads only their path). */
export const SEED_API_BASE = 'https://api.agent-platform.example';

interface AttachmentRow {
  attachment_id: string;
  org_id: string;
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: number;
}

const signingKeys = new WeakMap<Db, Buffer>();
/** Signing keys live in memory: a restart voids outstanding URLs, which last a minute anyway. */
function signingKey(db: Db): Buffer {
  let key = signingKeys.get(db);
  if (!key) signingKeys.set(db, (key = randomBytes(32)));
  return key;
}

function signature(db: Db, id: string, name: string, expires: number): string {
  return createHmac('sha256', signingKey(db)).update(`${id}\n${name}\n${expires}`).digest('base64url');
}

export function attachmentUrl(base: string, orgId: string, id: string, name: string): string {
  return `${base}/v3/organizations/${orgId}/attachments/${id}/${encodeURIComponent(name)}`;
}

/** A signed URL for a stored file, valid for SIGNED_URL_TTL_SECONDS from `now`. */
export function signedUrl(ctx: SandboxContext, origin: string, id: string, name: string): string {
  const expires = ctx.now() + SIGNED_URL_TTL_SECONDS;
  const q = `expires=${expires}&signature=${signature(ctx.db, id, name, expires)}`;
  return `${origin}${SIGNED_PATH_PREFIX}${id}/${encodeURIComponent(name)}?${q}`;
}

/** `attachment; filename="…"; filename*=UTF-8''…`: a plain fallback and the exact name. */
function contentDisposition(name: string): string {
  const plain = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

function getRow(db: Db, orgId: string, id: string): AttachmentRow | undefined {
  return db.prepare('SELECT * FROM attachments WHERE org_id = ? AND attachment_id = ?').get(orgId, id) as
    AttachmentRow | undefined;
}

async function upload(
  ctx: SandboxContext,
  orgId: string,
  request: Request,
  principal: { service_user_id: string; service_user_name: string },
): Promise<UploadedAttachment> {
  const id = randomUUID();
  const hash = createHash('sha256');
  let pending: PendingFile | undefined;
  let name = '';
  let read: Awaited<ReturnType<typeof readSingleFile>>;
  try {
    read = await readSingleFile(request, {
      field: ATTACHMENT_FIELD,
      maxBytes: ATTACHMENT_LIMITS.maxBytes,
      envelopeBytes: ATTACHMENT_LIMITS.envelopeBytes,
      open: async (part) => {
        const refusal = attachmentNameRefusal(part.filename);
        if (refusal)
          throw unprocessable([{ loc: ['body', ATTACHMENT_FIELD], msg: refusal, type: 'value_error' }], refusal);
        name = cleanAttachmentName(part.filename)!;
        pending = await beginFile(ctx.db, id);
        const file = pending;
        return {
          write: (chunk) => {
            hash.update(chunk);
            return file.write(chunk);
          },
        };
      },
    });
    if (read.size === 0) {
      throw unprocessable([{ loc: ['body', ATTACHMENT_FIELD], msg: 'the file is empty', type: 'multipart' }]);
    }
    await pending!.commit();
  } catch (err) {
    await pending?.discard();
    throw err;
  }
  const row: AttachmentRow = {
    attachment_id: id,
    org_id: orgId,
    name,
    content_type: read.part.contentType,
    size: read.size,
    sha256: hash.digest('hex'),
    created_at: ctx.now(),
  };
  ctx.db.transaction(() => {
    ctx.db
      .prepare(
        `INSERT INTO attachments (attachment_id, org_id, name, content_type, size, sha256, created_at, created_by,
           created_by_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        orgId,
        name,
        row.content_type,
        row.size,
        row.sha256,
        row.created_at,
        principal.service_user_id,
        principal.service_user_name,
      );
    ctx.audit({
      action: 'upload_attachment',
      org_id: orgId,
      principal,
      data: { attachment_id: id, name, size: row.size, content_type: row.content_type, sha256: row.sha256 },
    });
  })();
  return {
    attachment_id: id,
    name,
    url: attachmentUrl(new URL(request.url).origin, orgId, id, name),
    size: row.size,
    content_type: row.content_type,
  };
}

// ---------------------------------------------------------------- seed

const SEED_FILES: Array<{ name: string; type: string; body: (org: string) => string }> = [
  {
    name: 'checkout-error.log',
    type: 'text/plain',
    body: (org) =>
      Array.from(
        { length: 40 },
        (_, i) =>
          `2026-03-0${(i % 9) + 1}T10:${String(i).padStart(2, '0')}:00Z ERROR [${org}] checkout: timeout calling payments (attempt ${(i % 3) + 1})`,
      ).join('\n') + '\n',
  },
  {
    name: 'design-notes.md',
    type: 'text/markdown',
    body: () =>
      '# Retry policy\n\n- Retries with exponential backoff, at most 5.\n- Idempotency keys on every POST.\n- Alert after 3 failures in 10 minutes.\n',
  },
  {
    name: 'failing-orders.csv',
    type: 'text/csv',
    body: () =>
      'order_id,amount,currency,error\n' +
      Array.from({ length: 25 }, (_, i) => `ord_${1000 + i},${(i * 7.3 + 10).toFixed(2)},EUR,card_declined`).join(
        '\n',
      ) +
      '\n',
  },
];

const seededUuid = (hex: string) =>
  `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;

function seed(ctx: SeedContext): void {
  const now = ctx.now();
  const sessionsOf = ctx.db.prepare(
    'SELECT session_id, created_at FROM sessions WHERE org_id = ? ORDER BY created_at DESC, session_id LIMIT 6',
  );
  const attach = ctx.db.prepare(
    `UPDATE sessions SET create_params = json_set(coalesce(create_params, '{}'), '$.attachment_urls', json(?))
     WHERE session_id = ?`,
  );
  for (const orgId of ctx.orgIds()) {
    const files = ctx.rng.sample(SEED_FILES, 2);
    const urls: string[] = [];
    for (const f of files) {
      const id = seededUuid(ctx.rng.hex(32));
      const bytes = Buffer.from(f.body(orgId));
      putFile(ctx.db, id, bytes);
      ctx.db
        .prepare(
          `INSERT INTO attachments (attachment_id, org_id, name, content_type, size, sha256, created_at, created_by,
             created_by_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          id,
          orgId,
          f.name,
          f.type,
          bytes.length,
          createHash('sha256').update(bytes).digest('hex'),
          now - ctx.rng.int(1, 30) * 86_400,
          'service-user-sandbox-admin',
          'Sandbox Admin',
        );
      urls.push(attachmentUrl(SEED_API_BASE, orgId, id, f.name));
    }
    const sessions = sessionsOf.all(orgId) as Array<{ session_id: string }>;
    // Two of the organization's recent sessions were created with these files.
    for (const s of sessions.slice(1, 3)) attach.run(JSON.stringify(urls), s.session_id);
  }
}

export const attachmentsModule: SandboxModule = {
  name: 'attachments',
  migrations: [
    {
      id: 'attachments-001-create',
      sql: `CREATE TABLE attachments (
        attachment_id TEXT PRIMARY KEY,
        org_id TEXT NOT NULL,
        name TEXT NOT NULL,
        content_type TEXT NOT NULL,
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        created_by TEXT NOT NULL,
        created_by_name TEXT
      );
      CREATE INDEX attachments_org ON attachments (org_id, created_at);`,
    },
  ],
  seed,
  handlers: {
    'attachments.create': ({ params, request, principal }, ctx) =>
      upload(ctx, params.org_id, request, {
        service_user_id: principal.service_user_id,
        service_user_name: principal.service_user_name,
      }),
    'attachments.get': ({ params, request }, ctx) => {
      const row = getRow(ctx.db, params.org_id, params.uuid);
      if (!row || row.name !== params.name) {
        throw new HttpProblem(404, `Attachment ${params.uuid}/${params.name.slice(0, 300)} was not found`);
      }
      return {
        status: 302,
        headers: {
          location: signedUrl(ctx, new URL(request.url).origin, row.attachment_id, row.name),
          'cache-control': 'no-store',
        },
      };
    },
  },
  routes(app, ctx) {
    app.get(`${SIGNED_PATH_PREFIX}:id/:name`, (c) => {
      const instance = new URL(c.req.url).pathname;
      const id = c.req.param('id');
      const name = c.req.param('name');
      const expires = Number(c.req.query('expires'));
      const given = Buffer.from(c.req.query('signature') ?? '');
      const expected = Buffer.from(Number.isInteger(expires) ? signature(ctx.db, id, name, expires) : '');
      const valid = given.length > 0 && given.length === expected.length && timingSafeEqual(given, expected);
      if (!valid || expires < ctx.now()) {
        return problemResponse(403, 'This download link is not valid or has expired; ask the API for a new one', {
          instance,
        });
      }
      const row = ctx.db.prepare('SELECT * FROM attachments WHERE attachment_id = ?').get(id) as
        AttachmentRow | undefined;
      const file = row && row.name === name ? readFile(ctx.db, id) : null;
      if (!row || !file)
        return problemResponse(404, `The file ${name.slice(0, 300)} is no longer stored`, { instance });
      return new Response(file.body as BodyInit, {
        status: 200,
        headers: {
          'content-type': row.content_type,
          'content-length': String(file.size),
          'content-disposition': contentDisposition(row.name),
          'x-content-type-options': 'nosniff',
          'content-security-policy': "sandbox; default-src 'none'",
          'cache-control': `private, max-age=${SIGNED_URL_TTL_SECONDS}`,
        },
      });
    });
  },
};

/**
 * Attachments over HTTP: a multipart upload streamed into the store (memory and data directory), the size limit
 * while streaming (413, nothing kept), bad bodies (415, 422), file names with control or text-direction
 * characters (422), the download's redirect to a short-lived signed URL served without a credential
 * (byte-identical; tampered or expired → 403), 404s, audit, and sessions created with `attachment_urls`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACHMENT_LIMITS } from '../../../api/operations/attachments';
import { ADMIN, VIEWER, startTestSandbox } from '../../../test/harness';
import { SIGNED_URL_TTL_SECONDS } from './index';

let clock = Date.now();
let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgId: string;
const dir = mkdtempSync(join(tmpdir(), 'attachments-test-'));

beforeAll(async () => {
  sb = await startTestSandbox({ tickMs: 60_000, dbPath: join(dir, 'sandbox.db'), nowMs: () => clock });
  orgId = (await sb.api.get('/v3/enterprise/organizations?first=1')).body.items[0].org_id;
});
afterAll(async () => {
  await sb.stop();
  rmSync(dir, { recursive: true, force: true });
});

const uploadPath = () => `/v3/organizations/${orgId}/attachments`;

async function upload(
  file: Blob | null,
  opts: { name?: string; field?: string; token?: string; extra?: Record<string, string> } = {},
) {
  const form = new FormData();
  if (file) form.append(opts.field ?? 'file', file, opts.name ?? 'notes.txt');
  for (const [k, v] of Object.entries(opts.extra ?? {})) form.append(k, v);
  const res = await fetch(sb.url + uploadPath(), {
    method: 'POST',
    headers: { authorization: `Bearer ${opts.token ?? ADMIN}` },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

const rows = () => (sb.db.prepare('SELECT count(*) AS n FROM attachments').get() as { n: number }).n;
const stored = () => readdirSync(join(dir, 'attachments'));

/** Follows the download's redirect without any credential, as a browser would. */
async function download(url: string) {
  const path = new URL(url).pathname;
  const first = await fetch(sb.url + path, { headers: { authorization: `Bearer ${ADMIN}` }, redirect: 'manual' });
  expect(first.status).toBe(302);
  const location = first.headers.get('location')!;
  const file = await fetch(location, { redirect: 'manual' });
  return { location, file, bytes: Buffer.from(await file.arrayBuffer()) };
}

describe('upload', () => {
  it('stores the file in the data directory and answers attachment_id, name and url; audited', async () => {
    const bytes = randomBytes(300_000);
    const res = await upload(new Blob([bytes], { type: 'application/pdf' }), { name: 'report Q1 (final).pdf' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      attachment_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'report Q1 (final).pdf',
      size: bytes.length,
      content_type: 'application/pdf',
    });
    expect(res.body.url).toBe(
      `${sb.url}/v3/organizations/${orgId}/attachments/${res.body.attachment_id}/report%20Q1%20(final).pdf`,
    );
    const file = join(dir, 'attachments', res.body.attachment_id);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const audit = sb.db.prepare('SELECT action, org_id, data FROM audit_logs ORDER BY rowid DESC LIMIT 1').get() as {
      action: string;
      data: string;
    };
    expect(audit.action).toBe('upload_attachment');
    expect(JSON.parse(audit.data)).toMatchObject({ attachment_id: res.body.attachment_id, size: bytes.length });
  });

  it('keeps only the last segment of a path-like file name', async () => {
    const res = await upload(new Blob(['x']), { name: '../../etc/passwd' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('passwd');
  });

  it('answers 413 past the limit while streaming (no declared length), keeping nothing', async () => {
    const before = rows();
    const boundary = 'x-boundary-413';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    let sent = 0;
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent > ATTACHMENT_LIMITS.maxBytes + 2 * chunk.length) {
          controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(sb.url + uploadPath(), {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/larger than/);
    expect(rows()).toBe(before);
    expect(stored().filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('answers 413 to a file one byte over the limit, and accepts one at the limit', async () => {
    const before = rows();
    const over = await upload(new Blob([Buffer.alloc(ATTACHMENT_LIMITS.maxBytes + 1)]), { name: 'over.bin' });
    expect(over.status).toBe(413);
    expect(rows()).toBe(before);
    const at = await upload(new Blob([Buffer.alloc(ATTACHMENT_LIMITS.maxBytes, 1)]), { name: 'at.bin' });
    expect(at.status).toBe(200);
    expect(at.body.size).toBe(ATTACHMENT_LIMITS.maxBytes);
  });

  it.each([
    ['no file part', null, {}],
    ['a part of another name', new Blob(['x']), { field: 'upload' }],
    ['a second part', new Blob(['x']), { extra: { note: 'hello' } }],
    ['an empty file', new Blob([]), {}],
  ])('answers 422 to %s, keeping nothing', async (_name, file, opts) => {
    const before = rows();
    const res = await upload(file, opts);
    expect(res.status).toBe(422);
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(rows()).toBe(before);
    expect(stored().filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it.each([
    ['a NUL', 'report\u0000.pdf', /NUL character \(U\+0000\) at character 7/],
    ['a right-to-left override', 'invoice\u202Efdp.exe', /right-to-left override \(U\+202E\) at character 8/],
    ['a left-to-right isolate', 'a\u2066b.txt', /U\+2066/],
    ['a right-to-left mark', 'a\u200Fb.txt', /U\+200F/],
    ['a C1 control', 'a\u0085b.txt', /control character \(U\+0085\)/],
    ['an escape', 'a\u001b[31mb.txt', /escape character \(U\+001B\)/],
  ])('refuses a file name with %s (422 naming the file name), keeping nothing', async (_what, name, why) => {
    const before = rows();
    // Sent as filename* (RFC 5987): a browser's filename="…" escapes some of these on the way.
    const boundary = 'x-boundary-names';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.txt"; filename*=UTF-8''${encodeURIComponent(name)}\r\n\r\nhello\r\n--${boundary}--\r\n`,
    );
    const res = await fetch(sb.url + uploadPath(), {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.status).toBe(422);
    const problem = (await res.json()) as { detail: string; errors: Array<{ loc: string[]; msg: string }> };
    expect(problem.detail).toMatch(/^File name contains /);
    expect(problem.detail).toMatch(why);
    expect(problem.errors[0]!.loc).toEqual(['body', 'file']);
    expect(rows()).toBe(before);
  });

  it('answers 415 to a body that is not multipart, and 403 to the viewer (UseAgentSessions)', async () => {
    const json = await sb.api.call('POST', uploadPath(), { body: { file: 'x' } });
    expect(json.status).toBe(415);
    const viewer = await upload(new Blob(['x']), { token: VIEWER });
    expect(viewer.status).toBe(403);
    expect(viewer.body.detail).toContain('UseAgentSessions');
  });
});

describe('download', () => {
  it('redirects to a signed URL that serves the bytes without a credential, identical', async () => {
    const bytes = randomBytes(123_457);
    const up = await upload(new Blob([bytes]), { name: 'données été.bin' });
    const { location, file, bytes: got } = await download(up.body.url);
    expect(location.startsWith(`${sb.url}/attachment-files/${up.body.attachment_id}/`)).toBe(true);
    expect(location).toMatch(/expires=\d+&signature=/);
    expect(file.status).toBe(200);
    expect(got.equals(bytes)).toBe(true);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="donn_es _t_.bin"; filename*=UTF-8''${encodeURIComponent('données été.bin')}`,
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('lets the viewer download (ViewOrgSessions)', async () => {
    const up = await upload(new Blob(['for the viewer']), { name: 'v.txt' });
    const res = await fetch(sb.url + new URL(up.body.url).pathname, {
      headers: { authorization: `Bearer ${VIEWER}` },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
  });

  it('refuses a tampered or expired signed URL (403)', async () => {
    const up = await upload(new Blob(['short-lived']), { name: 's.txt' });
    const { location } = await download(up.body.url);
    const tampered = location.replace(/signature=./, (m) =>
      m.endsWith('A') ? `${m.slice(0, -1)}B` : `${m.slice(0, -1)}A`,
    );
    expect((await fetch(tampered)).status).toBe(403);
    const otherName = location.replace('/s.txt?', '/t.txt?');
    expect((await fetch(otherName)).status).toBe(403);
    expect((await fetch(location.replace(/expires=\d+/, (m) => `expires=${Number(m.slice(8)) + 1000}`))).status).toBe(
      403,
    );
    expect((await fetch(location)).status).toBe(200);
    clock += (SIGNED_URL_TTL_SECONDS + 1) * 1000;
    expect((await fetch(location)).status).toBe(403);
  });

  it('404s an unknown id, a wrong name and another organization', async () => {
    const up = await upload(new Blob(['x']), { name: 'a.txt' });
    const base = `/v3/organizations/${orgId}/attachments`;
    expect((await sb.api.get(`${base}/00000000-0000-4000-a000-000000000000/a.txt`)).status).toBe(404);
    expect((await sb.api.get(`${base}/${up.body.attachment_id}/b.txt`)).status).toBe(404);
    const other = (await sb.api.get('/v3/enterprise/organizations?first=2')).body.items[1].org_id;
    expect((await sb.api.get(`/v3/organizations/${other}/attachments/${up.body.attachment_id}/a.txt`)).status).toBe(
      404,
    );
  });
});

describe('sessions with attachments', () => {
  it('list the attachment_urls they were created with; seeded sessions have some that download', async () => {
    const up = await upload(new Blob(['context for the agent']), { name: 'context.md' });
    const created = await sb.api.call('POST', `/v3/organizations/${orgId}/sessions`, {
      body: { prompt: 'Read the attached notes', attachment_urls: [up.body.url] },
    });
    expect(created.status).toBe(200);
    expect(created.body.attachment_urls).toEqual([up.body.url]);
    const got = await sb.api.get(`/v3/organizations/${orgId}/sessions/${created.body.session_id}`);
    expect(got.body.attachment_urls).toEqual([up.body.url]);

    const seeded = sb.db
      .prepare(`SELECT session_id FROM sessions WHERE org_id = ? AND create_params LIKE '%attachment_urls%'`)
      .all(orgId) as { session_id: string }[];
    const withFiles = seeded.find((s) => s.session_id !== created.body.session_id)!;
    const session = (await sb.api.get(`/v3/organizations/${orgId}/sessions/${withFiles.session_id}`)).body;
    expect(session.attachment_urls.length).toBe(2);
    const { file, bytes } = await download(session.attachment_urls[0]);
    expect(file.status).toBe(200);
    expect(bytes.length).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'attachments'))).toBe(true);
  });
});

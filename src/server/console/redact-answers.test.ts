/**
 * Issue 26, item 1: the credential an upstream plants inside data (an IP range, a git-permission path) never
 * comes back from a `/console` answer of any status, never reaches the history as stored (console.db and its
 * WAL), in any of the forms an attacker would pick (JSON escapes, literal `\x…`/`\u…` text, HTML character
 * references, base64 of a compressed text).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream } from '../../test/fake-upstream';
import { rawRequest, testConfig } from '../../test/harness';
import { createConsoleServer, type ConsoleServer } from '../app';
import { createRedactor } from '../redact';

const SECRET = 'cog_planted_in_data_5a4b3c2d1e';
const esc = (f: (c: string) => string) => [...SECRET].map(f).join('');
/** How the upstream writes the credential, as JSON text inside a string value. */
const PLANTED = {
  jsonEscaped: esc((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  literalX: esc((c) => `\\\\x${c.charCodeAt(0).toString(16)}`),
  literalU: esc((c) => `\\\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  entities: SECRET.replace('_', '&#95;').replace(/_/g, '&#x5f;'),
  named: SECRET.replace(/_/g, '&lowbar;'),
  gzipBase64: gzipSync(SECRET).toString('base64'),
};
const finder = createRedactor([SECRET]);
/** Whether `text` still holds the credential in any planted form. */
const leaks = (text: string) =>
  text.includes(SECRET) ||
  Object.values(PLANTED).some((p) => text.includes(p) || text.includes(JSON.parse(`"${p}"`) as string)) ||
  finder.test(text);

const ranges = ['127.0.0.1', ...Object.values(PLANTED).map((p) => `10.0.0.0/8 ${p}`)];

let up: Awaited<ReturnType<typeof startFakeUpstream>>;
let server: ConsoleServer;
let port: number;
const dataDir = mkdtempSync(join(tmpdir(), 'console-redact-'));

beforeAll(async () => {
  up = await startFakeUpstream((req, res) => {
    const json = (status: number, body: string) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    if (req.url.startsWith('/v3/enterprise/ip-access-list')) {
      if (req.method === 'GET') return json(200, `{"ip_ranges":[${ranges.map((r) => `"${r}"`).join(',')}]}`);
      if (req.method === 'PUT') return json(200, req.body);
    }
    if (req.url.startsWith('/v3/enterprise/organizations/org-1/git-providers/permissions')) {
      return json(
        200,
        `{"items":[{"git_permission_id":"gp-1","git_connection_id":"gc-1","repo_path":"acme/${PLANTED.literalX}","read_only":false}],"has_next_page":false,"end_cursor":null}`,
      );
    }
    json(404, `{"status":404,"detail":"no ${PLANTED.literalU} here ${PLANTED.named}"}`);
  });
  server = createConsoleServer({ config: testConfig({ dataDir }), upstream: { baseUrl: up.url, apiKey: SECRET } });
  ({ port } = await server.listen());
});
afterAll(async () => {
  await server.close();
  await up.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const json = { 'content-type': 'application/json' };

describe('the credential planted in upstream data', () => {
  it('never comes back from a /console success answer (IP list, git permissions) nor a problem', async () => {
    const list = await rawRequest(port, 'GET', '/console/ip-access-list');
    expect(list.status).toBe(200);
    expect(leaks(list.text), list.text).toBe(false);
    const body = JSON.parse(list.text) as { ip_ranges: string[] };
    expect(body.ip_ranges[0]).toBe('127.0.0.1');
    expect(body.ip_ranges).toHaveLength(ranges.length);

    const git = await rawRequest(port, 'GET', '/console/git-permissions/orgs/org-1');
    expect(git.status).toBe(200);
    expect(leaks(git.text), git.text).toBe(false);
    expect(git.text).toContain('acme/');

    const missing = await rawRequest(port, 'GET', '/console/git-permissions/orgs/org-404');
    expect(leaks(missing.text), missing.text).toBe(false);
  });

  it("never reaches the stored history (console.db, its WAL) nor a revision's previous set", async () => {
    const current = JSON.parse((await rawRequest(port, 'GET', '/console/ip-access-list')).text) as {
      version: string;
    };
    const applied = await rawRequest(
      port,
      'PUT',
      '/console/ip-access-list',
      json,
      JSON.stringify({ base_version: current.version, ip_ranges: ['127.0.0.1', '::1'] }),
    );
    expect(applied.status, applied.text).toBe(200);
    const id = (JSON.parse(applied.text) as { revision: { revision_id: number } }).revision.revision_id;
    const revision = await rawRequest(port, 'GET', `/console/ip-access-list/revisions/${id}`);
    expect(revision.status).toBe(200);
    expect(leaks(revision.text), revision.text).toBe(false);
    expect((JSON.parse(revision.text) as { previous: string[] }).previous).toHaveLength(ranges.length);

    const files = readdirSync(dataDir).filter((f) => f.startsWith('console.db'));
    expect(files).toContain('console.db-wal');
    for (const f of files) expect(leaks(readFileSync(join(dataDir, f)).toString('latin1')), f).toBe(false);
  });
});

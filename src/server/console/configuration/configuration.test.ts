/**
 * Configuration as code against the sandbox, through the console's endpoints: export plans as no changes; an
 * edited document (an organization added from a fragment, a permission set changed across ten organizations, a
 * note removed) plans exactly those changes, applies, and exports back to the document; a hand change is drift
 * and makes a stale plan's apply refuse; a bad document names each error's place and applies nothing; a
 * secret's value from the environment never appears in any answer; 429s are waited out; a cancel stops the
 * apply between resources, and its report says what was done.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { ConfigDrift, ConfigPlan, ConfigReport, ConfigRevisionPage } from '../../../api/console/configuration';
import { parseConfigDocument } from '../../../api/config-document/parse';
import { problem } from '../../../api/problem';
import { ADMIN, startTestConsole } from '../../../test/harness';
import { UpstreamProblem, type UpstreamClient } from '../upstream-client';
import { patientUpstream } from './index';

let con: Awaited<ReturnType<typeof startTestConsole>>;
const answered: string[] = [];
const SECRET = 'sup3r-s3cret-value-4711';

async function call(method: string, path: string, body?: unknown) {
  const res = await con.api.call(method, path, body === undefined ? {} : { body });
  answered.push(res.text);
  return res;
}
const plan = async (document: string, extra: object = {}) => {
  const res = await call('POST', '/console/configuration/plan', { document, file: 'enterprise.yaml', ...extra });
  expect(res.status, res.text).toBe(200);
  return ConfigPlan.parse(res.body);
};
const apply = (document: string, planId: string, extra: object = {}) =>
  call('POST', '/console/configuration/apply', { document, file: 'enterprise.yaml', plan_id: planId, ...extra });
const revisionCount = async () =>
  ConfigRevisionPage.parse((await call('GET', '/console/configuration/revisions')).body).total ?? 0;

let orgs: { org_id: string; name: string }[];
let exported: string;

beforeAll(async () => {
  con = await startTestConsole({ sandbox: { tickMs: 60_000 } });
  orgs = (await con.sandbox!.api.call('GET', '/v3/enterprise/organizations?first=200')).body.items;
  // Ten organizations: the sandbox's eight and two more.
  for (const name of ['Research', 'Support Tools']) {
    const r = await con.sandbox!.api.call('POST', '/v3/enterprise/organizations', { body: { name } });
    orgs.push(r.body);
  }
});
afterAll(async () => {
  for (const text of answered) {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(ADMIN);
  }
  await con?.close();
});

describe('export', () => {
  it('writes live state as a document that plans as no changes', async () => {
    const res = await call('GET', '/console/configuration/export');
    expect(res.status, res.text).toBe(200);
    exported = res.body.document as string;
    const parsed = parseConfigDocument(exported, 'export.yaml');
    expect(parsed.errors).toEqual([]);
    expect(parsed.expanded!.organizations.items).toHaveLength(10);
    const p = await plan(exported);
    expect(p.changes).toEqual([]);
    expect(p.counts).toEqual({ create: 0, update: 0, delete: 0, destructive: 0 });
  });
});

/** A document over the ten organizations: a baseline fragment of git permissions, tags, a note and a schedule. */
function documentOf(opts: { readOnly: boolean; withNewOrg: boolean; dropNote: boolean }) {
  const live = parseYaml(exported) as { organizations: { name: string; notes: object[] }[] };
  const growth = live.organizations.find((o) => o.name === 'Growth Web')!;
  return stringify({
    version: 1,
    fragments: {
      baseline: {
        allowed_tags: ['release', 'hotfix'],
        git_permissions: [
          { connection: 'GitHub — acme-corp', prefix_path: 'acme-corp/shared/', read_only: opts.readOnly },
          { connection: 'GitLab (self-managed)', group_prefix: 'platform' },
        ],
        notes: [{ name: 'Code review rules', trigger: 'When reviewing a pull request', body: 'Two approvals.' }],
        schedules: [{ name: 'Nightly dependency check', prompt: 'Check dependencies.', frequency: '0 3 * * *' }],
      },
    },
    organizations: [
      ...orgs.map((o) => ({
        name: o.name,
        include: ['baseline'],
        ...(o.name === 'Growth Web'
          ? { notes: { manage: 'all', items: opts.dropNote ? growth.notes.slice(1) : growth.notes } }
          : {}),
      })),
      ...(opts.withNewOrg
        ? [
            {
              name: 'Data Science',
              include: ['baseline'],
              acu_limit: 500,
              secrets: [{ key: 'WAREHOUSE_TOKEN', type: 'key-value', value_from_env: 'WAREHOUSE_TOKEN' }],
            },
          ]
        : []),
    ],
  });
}

describe('plan and apply', () => {
  it('applies a document with a fragment, then an edit plans exactly its changes, applies, and exports back', async () => {
    const first = documentOf({ readOnly: false, withNewOrg: false, dropNote: false });
    const p1 = await plan(first);
    expect(p1.counts.delete).toBe(0);
    const r1 = await apply(first, p1.plan_id);
    expect(r1.status, r1.text).toBe(200);
    expect(ConfigReport.parse(r1.body).status).toBe('applied');

    // The edit: one organization more (from the fragment), the fragment's permission set changed (ten
    // organizations), a note removed from a set the document manages whole.
    const edited = documentOf({ readOnly: true, withNewOrg: true, dropNote: true });
    const p2 = await plan(edited);
    const byKind = (kind: string, action?: string) =>
      p2.changes.filter((c) => c.kind === kind && (!action || c.action === action));
    expect(
      byKind('git_permissions', 'update')
        .map((c) => c.organization)
        .sort(),
    ).toEqual(orgs.map((o) => o.name).sort());
    expect(byKind('organization').map((c) => [c.action, c.key])).toEqual([['create', 'Data Science']]);
    expect(byKind('note', 'delete')).toHaveLength(1);
    expect(byKind('note', 'delete')[0]).toMatchObject({ organization: 'Growth Web', destructive: true });
    // Everything else belongs to the new organization: its tags, permissions, note, schedule and secret.
    const rest = p2.changes.filter(
      (c) =>
        c.kind !== 'organization' &&
        c.organization !== null &&
        !(c.kind === 'git_permissions' && c.action === 'update') &&
        !(c.kind === 'note' && c.action === 'delete'),
    );
    expect(rest.every((c) => c.organization === 'Data Science' && c.action === 'create')).toBe(true);
    expect(rest.map((c) => c.kind).sort()).toEqual(['allowed_tags', 'git_permissions', 'note', 'schedule', 'secret']);
    expect(p2.counts).toMatchObject({ create: 6, update: 10, delete: 1 });
    expect(p2.secret_env).toEqual(['WAREHOUSE_TOKEN']);
    expect(p2.organizations.find((o) => o.name === 'Data Science')).toMatchObject({
      include: ['baseline'],
      exists: false,
    });

    // Without the secret's value nothing is applied.
    const refused = await apply(edited, p2.plan_id);
    expect(refused.status).toBe(422);
    expect(refused.body.missing_env).toEqual(['WAREHOUSE_TOKEN']);

    const r2 = await apply(edited, p2.plan_id, { secret_values: { WAREHOUSE_TOKEN: SECRET } });
    expect(r2.status, r2.text).toBe(200);
    const report = ConfigReport.parse(r2.body);
    expect(report).toMatchObject({ status: 'applied', applied: p2.changes.length, failed: 0 });
    // Organizations before their contents.
    expect(report.steps[0]).toMatchObject({ kind: 'organization', action: 'create' });

    // A second apply reports no changes; export now holds the document.
    const p3 = await plan(edited);
    expect(p3.changes).toEqual([]);
    const again = ConfigReport.parse((await apply(edited, p3.plan_id)).body);
    expect(again).toMatchObject({ status: 'applied', applied: 0 });
    expect(again.message).toMatch(/No changes/);
    const after = (await call('GET', '/console/configuration/export')).body.document as string;
    const exportedOrgs = parseConfigDocument(after, 'export.yaml').expanded!.organizations.items;
    const wanted = parseConfigDocument(edited, 'enterprise.yaml').expanded!.organizations.items;
    for (const want of wanted) {
      const got = exportedOrgs.find((o) => o.name === want.name)!;
      expect(got.allowed_tags).toEqual(want.allowed_tags);
      expect(got.git_permissions).toEqual(want.git_permissions!.map((p) => ({ read_only: false, ...p })));
      for (const n of want.notes!.items) expect(got.notes!.items).toContainEqual(expect.objectContaining(n));
      if (want.name === 'Growth Web') expect(got.notes!.items).toHaveLength(want.notes!.items.length);
      expect(got.schedules!.items).toContainEqual(expect.objectContaining(want.schedules!.items[0]));
    }
    expect(exportedOrgs.find((o) => o.name === 'Data Science')).toMatchObject({ acu_limit: 500 });
    expect(after).toContain('WAREHOUSE_TOKEN');

    // History: each apply with its plan and who applied it.
    const history = ConfigRevisionPage.parse((await call('GET', '/console/configuration/revisions')).body);
    expect(history.items[1]).toMatchObject({
      kind: 'apply',
      status: 'applied',
      counts: p2.counts,
      made_by_kind: 'access_control_off',
    });
    const rev = await call('GET', `/console/configuration/revisions/${history.items[1]!.revision_id}`);
    expect(rev.body.plan).toHaveLength(p2.changes.length);
    expect(rev.body.document).toBe(edited);
  });

  it('reports a hand change as drift, and refuses the stale plan’s apply', async () => {
    const document = documentOf({ readOnly: true, withNewOrg: true, dropNote: true });
    const stale = await plan(document);
    expect(stale.changes).toEqual([]);
    const target = orgs.find((o) => o.name === 'Research')!;
    const hand = await con.sandbox!.api.call(
      'PUT',
      `/v3/enterprise/organizations/${target.org_id}/git-providers/permissions`,
      {
        body: { permissions: [] },
      },
    );
    expect(hand.status, hand.text).toBe(200);

    const drift = ConfigDrift.parse((await call('GET', '/console/configuration/drift')).body);
    expect(drift.changes).toEqual([
      expect.objectContaining({ organization: 'Research', kind: 'git_permissions', action: 'update' }),
    ]);

    const before = await revisionCount();
    const refused = await apply(document, stale.plan_id);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.reason).toBe('stale_plan');
    expect(await revisionCount()).toBe(before);
    const still = await con.sandbox!.api.call(
      'GET',
      `/v3/enterprise/organizations/${target.org_id}/git-providers/permissions`,
    );
    expect(still.body.items).toEqual([]);

    // Applying again (a fresh plan) restores it, through the guarded path: its history has the change.
    const fresh = await plan(document);
    expect((await apply(document, fresh.plan_id)).status).toBe(200);
    const gitHistory = await call('GET', `/console/git-permissions/orgs/${target.org_id}/revisions`);
    expect(gitHistory.body.items[0]).toMatchObject({ action: 'replace', status: 'applied' });
  });
});

describe('bad documents', () => {
  it('names every error with its file, path and line, and applies nothing', async () => {
    const before = await revisionCount();
    const document = [
      'version: 1',
      'fragments:',
      '  baseline:',
      '    allowed_tags: [ok]',
      'organizations:',
      '  - name: Research',
      '    include: [basline]',
      '    acu_limit: -5',
      '  - name: Research',
      '    notes:',
      '      - name: No body',
      '        trigger: Always',
    ].join('\n');
    const res = await call('POST', '/console/configuration/plan', { document, file: 'bad.yaml' });
    expect(res.status).toBe(422);
    const errors = res.body.document_errors as { file: string; path: string; line: number; message: string }[];
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'bad.yaml', path: 'organizations[0].acu_limit', line: 8 }),
        expect.objectContaining({ path: 'organizations[1].notes[0].body', line: 11 }),
      ]),
    );
    const applied = await apply(document, 'pl1-anything');
    expect(applied.status).toBe(422);

    // Past the schema: an unknown fragment and a name twice, each at its line.
    const fixed = document
      .replace('acu_limit: -5', 'acu_limit: 5')
      .replace('trigger: Always', 'trigger: Always\n        body: text');
    const second = await call('POST', '/console/configuration/plan', { document: fixed, file: 'bad.yaml' });
    expect(second.status).toBe(422);
    expect(second.body.document_errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          path: 'organizations[0].include[0]',
          line: 7,
          message: expect.stringContaining('basline'),
        }),
        expect.objectContaining({ path: 'organizations[1].name', line: 9 }),
      ]),
    );
    // Found only against live state: an unknown git connection, at the organization's line.
    const unknown =
      'version: 1\norganizations:\n  - name: Research\n    git_permissions:\n      - connection: Nowhere\n        repo_path: a/b\n';
    const third = await call('POST', '/console/configuration/plan', { document: unknown, file: 'bad.yaml' });
    expect(third.status).toBe(422);
    expect(third.body.document_errors[0]).toMatchObject({ path: 'organizations[0].git_permissions[0]', line: 5 });
    expect(await revisionCount()).toBe(before);
  });

  it('refuses a document over the size bound', async () => {
    const res = await call('POST', '/console/configuration/validate', {
      document: `version: 1\n#${'x'.repeat(1_048_576)}`,
    });
    expect(res.status).toBe(422);
  });
});

describe('rate limit', () => {
  it('waits out 429s within the budget, then gives up', async () => {
    let fails = 2;
    const flaky: UpstreamClient = {
      call: async () => {
        if (fails-- > 0) throw new UpstreamProblem(429, problem(429, 'slow down'), { 'retry-after': '0' });
        return { ip_ranges: [] } as never;
      },
      all: async () => [],
    };
    const waits: number[] = [];
    const patient = patientUpstream(flaky, { budgetS: 10, onWait: (s) => waits.push(s) });
    await expect(patient.call('ipAccessList.get')).resolves.toEqual({ ip_ranges: [] });
    expect(waits).toEqual([0, 0]);
    const stubborn: UpstreamClient = {
      call: async () => {
        throw new UpstreamProblem(429, problem(429, 'slow down'), { 'retry-after': '5' });
      },
      all: async () => [],
    };
    await expect(patientUpstream(stubborn, { budgetS: 1 }).call('ipAccessList.get')).rejects.toMatchObject({
      status: 429,
    });
  });
});

describe('cancel', () => {
  it('stops between resources, and the report says which were applied and which were not', async () => {
    const sandbox = con.sandbox!;
    let reached!: () => void;
    let release!: () => void;
    const creatingB = new Promise<void>((r) => (reached = r));
    const released = new Promise<void>((r) => (release = r));
    // This file's sandbox behind a proxy (and a console of its own in front of that) that holds the second
    // organization's creation until the test has cancelled.
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        if (req.method === 'POST' && body.includes('"Cancel B"')) {
          reached();
          await released;
        }
        const headers: Record<string, string> = {};
        for (const h of ['authorization', 'content-type', 'accept'])
          if (req.headers[h]) headers[h] = String(req.headers[h]);
        const answer = await fetch(sandbox.url + req.url, {
          method: req.method,
          headers,
          body: body.length ? body : undefined,
        });
        const type = answer.headers.get('content-type');
        res.writeHead(answer.status, type ? { 'content-type': type } : {});
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const { port } = proxy.address() as AddressInfo;
    const cancelling = await startTestConsole({ upstream: { baseUrl: `http://127.0.0.1:${port}`, apiKey: ADMIN } });
    try {
      const document = stringify({
        version: 1,
        organizations: ['Cancel A', 'Cancel B', 'Cancel C'].map((name) => ({ name })),
      });
      const planned = await cancelling.api.call('POST', '/console/configuration/plan', {
        body: { document, file: 'c.yaml' },
      });
      expect(planned.status, planned.text).toBe(200);
      const p = ConfigPlan.parse(planned.body);
      expect(p.changes.map((c) => c.key)).toEqual(['Cancel A', 'Cancel B', 'Cancel C']);

      const applying = cancelling.api.call('POST', '/console/configuration/apply', {
        body: { document, file: 'c.yaml', plan_id: p.plan_id, apply_id: 'cancel-test' },
      });
      await creatingB;
      const cancel = await cancelling.api.call('POST', '/console/configuration/applies/cancel-test/cancel');
      expect(cancel.status, cancel.text).toBe(200);
      expect(cancel.body).toMatchObject({ cancelling: true, finished: false });
      release();

      const res = await applying;
      expect(res.status, res.text).toBe(200);
      const report = ConfigReport.parse(res.body);
      // The change under way when the cancel came finishes; the next one is never started.
      expect(report).toMatchObject({ status: 'partial', applied: 2, failed: 0, skipped: 1 });
      expect(report.steps.map((s) => [s.key, s.status])).toEqual([
        ['Cancel A', 'applied'],
        ['Cancel B', 'applied'],
        ['Cancel C', 'skipped'],
      ]);
      expect(report.message).toMatch(/^Cancelled: 2 of 3 changes were applied/);
      const names = (await sandbox.api.call('GET', '/v3/enterprise/organizations?first=200')).body.items.map(
        (o: { name: string }) => o.name,
      );
      expect(names).toEqual(expect.arrayContaining(['Cancel A', 'Cancel B']));
      expect(names).not.toContain('Cancel C');
      const progress = await cancelling.api.call('GET', '/console/configuration/applies/cancel-test');
      expect(progress.body).toMatchObject({ finished: true, report: { status: 'partial' } });
    } finally {
      release();
      await cancelling.close();
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
  });
});

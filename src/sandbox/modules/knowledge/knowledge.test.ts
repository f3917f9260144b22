/** Knowledge notes over HTTP: both lists and every filter, create/get/update/delete, folders, 422s, 403s, audit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, VIEWER, startTestSandbox } from '../../../test/harness';

let sb: Awaited<ReturnType<typeof startTestSandbox>>;
let orgId: string;
let otherOrgId: string;

const ENT = '/v3/enterprise/knowledge';
const org = (id = orgId) => `/v3/organizations/${id}/knowledge`;

interface Note {
  note_id: string;
  name: string;
  body: string;
  trigger: string;
  is_enabled: boolean;
  access_type: string;
  org_id: string | null;
  folder_id: string | null;
  folder_path: string;
  pinned_repo: string | null;
  created_at: number;
  updated_at: number;
}

async function all(path: string): Promise<Note[]> {
  const out: Note[] = [];
  let after: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res: { status: number; body: any } = await sb.api.get(
      `${path}${sep}first=200${after ? `&after=${after}` : ''}`,
    );
    expect(res.status).toBe(200);
    out.push(...res.body.items);
    after = res.body.has_next_page ? res.body.end_cursor : null;
  } while (after);
  return out;
}

function auditActions(action: string): Array<{ data: string; org_id: string | null }> {
  return sb.db.prepare('SELECT data, org_id FROM audit_logs WHERE action = ? ORDER BY rowid').all(action) as never;
}

beforeAll(async () => {
  sb = await startTestSandbox();
  const res = await sb.api.get('/v3/enterprise/organizations');
  orgId = res.body.items[0].org_id;
  otherOrgId = res.body.items[1].org_id;
});
afterAll(() => sb.stop());

describe('seed', () => {
  it('has notes of both access types, in nested folders, some pinned to repositories', async () => {
    const notes = await all(`${ENT}/notes`);
    expect(notes.some((n) => n.access_type === 'enterprise' && n.org_id === null)).toBe(true);
    expect(notes.some((n) => n.access_type === 'org' && n.org_id?.startsWith('org-'))).toBe(true);
    expect(notes.some((n) => n.pinned_repo)).toBe(true);
    expect(notes.some((n) => n.folder_path.split('/').filter(Boolean).length >= 3)).toBe(true);
    expect(notes.some((n) => !n.is_enabled)).toBe(true);
    for (const n of notes) {
      expect(n.note_id).toMatch(/^note-/);
      expect(Number.isInteger(n.created_at) && Number.isInteger(n.updated_at)).toBe(true);
      expect(typeof n.trigger).toBe('string');
    }
  });
});

describe('enterprise list filters', () => {
  it('access_type keeps only that type', async () => {
    for (const t of ['org', 'enterprise']) {
      const notes = await all(`${ENT}/notes?access_type=${t}`);
      expect(notes.length).toBeGreaterThan(0);
      expect(notes.every((n) => n.access_type === t)).toBe(true);
    }
  });

  it('search matches name, trigger and body, case-insensitively', async () => {
    expect((await all(`${ENT}/notes?search=IDEMPOTENCY`)).map((n) => n.name)).toContain('Idempotency keys');
    // In the trigger only.
    expect((await all(`${ENT}/notes?search=${encodeURIComponent('alert fires')}`)).length).toBeGreaterThan(0);
    // In the body only.
    expect((await all(`${ENT}/notes?search=half-even`)).map((n) => n.name)).toEqual(['Commit message conventions']);
    expect(await all(`${ENT}/notes?search=${encodeURIComponent('%_nothing_like_this')}`)).toEqual([]);
  });

  it('folder_path keeps the notes of that folder; "/" the notes in no folder', async () => {
    const notes = await all(`${ENT}/notes?folder_path=${encodeURIComponent('/Engineering/Backend/Payments')}`);
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((n) => n.folder_path === '/Engineering/Backend/Payments')).toBe(true);
    // Written without the leading slash or with a trailing one, it is the same folder.
    expect(await all(`${ENT}/notes?folder_path=Engineering/Backend/Payments/`)).toEqual(notes);
    const root = await all(`${ENT}/notes?folder_path=/`);
    expect(root.length).toBeGreaterThan(0);
    expect(root.every((n) => n.folder_id === null && n.folder_path === '/')).toBe(true);
  });

  it('pinned_repo keeps the notes pinned to that repository; filters combine', async () => {
    const pinned = (await all(`${ENT}/notes`)).find((n) => n.pinned_repo)!;
    const notes = await all(`${ENT}/notes?pinned_repo=${encodeURIComponent(pinned.pinned_repo!)}`);
    expect(notes.map((n) => n.note_id)).toContain(pinned.note_id);
    expect(notes.every((n) => n.pinned_repo === pinned.pinned_repo)).toBe(true);
    const combined = await all(
      `${ENT}/notes?pinned_repo=${encodeURIComponent(pinned.pinned_repo!)}&access_type=enterprise`,
    );
    expect(combined).toEqual([]);
  });

  it('pages with stable cursors and no repeats', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const res: { body: { items: Note[]; end_cursor: string | null; has_next_page: boolean } } = await sb.api.get(
        `${ENT}/notes?first=7${after ? `&after=${after}` : ''}`,
      );
      seen.push(...res.body.items.map((n) => n.note_id));
      after = res.body.has_next_page ? res.body.end_cursor : null;
    } while (after);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual((await all(`${ENT}/notes`)).map((n) => n.note_id));
  });

  it('422 on an unknown access_type, with a field error', async () => {
    const res: { status: number; body: any } = await sb.api.get(`${ENT}/notes?access_type=personal`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ loc: ['query', 'access_type'], msg: expect.stringMatching(/org or enterprise/) }),
    ]);
  });
});

describe('organization list', () => {
  it("lists only that organization's org notes, with filters", async () => {
    const notes = await all(`${org()}/notes`);
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((n) => n.access_type === 'org' && n.org_id === orgId)).toBe(true);
    const withRepo = notes.find((n) => n.pinned_repo);
    if (withRepo) {
      const filtered = await all(`${org()}/notes?pinned_repo=${encodeURIComponent(withRepo.pinned_repo!)}`);
      expect(filtered.every((n) => n.pinned_repo === withRepo.pinned_repo)).toBe(true);
    }
    const searched = await all(`${org()}/notes?search=${encodeURIComponent(notes[0]!.name)}`);
    expect(searched.map((n) => n.note_id)).toContain(notes[0]!.note_id);
  });

  it('404s an unknown organization', async () => {
    expect((await sb.api.get('/v3/organizations/org-nope/knowledge/notes')).status).toBe(404);
  });
});

describe('create, get, update, delete', () => {
  it('creates an enterprise note: trigger_description is answered as trigger; audited', async () => {
    const res = await sb.api.call('POST', `${ENT}/notes`, {
      body: {
        name: 'Flaky test policy',
        trigger_description: 'When a test fails intermittently',
        body: '# Quarantine\n\nThen fix.',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Flaky test policy',
      trigger: 'When a test fails intermittently',
      body: '# Quarantine\n\nThen fix.',
      access_type: 'enterprise',
      org_id: null,
      is_enabled: true,
      folder_path: '/',
    });
    expect(res.body).not.toHaveProperty('trigger_description');
    const got = await sb.api.get(`${ENT}/notes/${res.body.note_id}`);
    expect(got.body).toEqual(res.body);
    const found = await all(`${ENT}/notes?search=flaky%20test`);
    expect(found.map((n) => n.note_id)).toContain(res.body.note_id);
    const audit = auditActions('create_knowledge_note').at(-1)!;
    expect(JSON.parse(audit.data)).toMatchObject({ note_id: res.body.note_id, name: 'Flaky test policy' });
  });

  it('accepts the vendor field name trigger as well', async () => {
    const res = await sb.api.call('POST', `${ENT}/notes`, {
      body: { name: 'Vendor shape', trigger: 'Always', body: 'x' },
    });
    expect(res.status).toBe(200);
    expect(res.body.trigger).toBe('Always');
    // Update by the vendor's name too; both names with the same text (as the console sends them) are one field.
    const put = await sb.api.call('PUT', `${ENT}/notes/${res.body.note_id}`, {
      body: { name: 'Vendor shape', trigger: 'When asked', body: 'x' },
    });
    expect(put.body.trigger).toBe('When asked');
    const both = await sb.api.call('POST', `${org()}/notes`, {
      body: { name: 'Both names', trigger_description: 'On deploys', trigger: 'On deploys', body: 'x' },
    });
    expect(both.status).toBe(200);
    expect(both.body.trigger).toBe('On deploys');
  });

  it('refuses two trigger names that disagree, saying why, and stores nothing', async () => {
    const before = auditActions('create_knowledge_note').length;
    const res = await sb.api.call('POST', `${ENT}/notes`, {
      body: { name: 'Torn', trigger_description: 'On deploys', trigger: 'On releases', body: 'x' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ loc: ['body', 'trigger_description'] });
    expect(res.body.errors[0].msg).toMatch(/trigger_description and trigger name the same field/);
    expect(auditActions('create_knowledge_note')).toHaveLength(before);
  });

  it('creates an org note in a folder, disabled and pinned; the org sees it, another org does not', async () => {
    const folders = (await sb.api.get(`${org()}/folders`)).body.folders as Array<{ folder_id: string; path: string }>;
    const folder = folders.find((f) => f.path === '/Operations/Deploys')!;
    const res = await sb.api.call('POST', `${org()}/notes`, {
      body: {
        name: 'Canary rules',
        trigger_description: 'When deploying',
        body: 'Watch the canary for 30 minutes.',
        folder_id: folder.folder_id,
        is_enabled: false,
        pinned_repo: 'acme/api-gateway',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      access_type: 'org',
      org_id: orgId,
      is_enabled: false,
      folder_id: folder.folder_id,
      folder_path: '/Operations/Deploys',
      pinned_repo: 'acme/api-gateway',
    });
    const id = res.body.note_id;
    expect((await sb.api.get(`${org()}/notes/${id}`)).status).toBe(200);
    expect((await sb.api.get(`${org(otherOrgId)}/notes/${id}`)).status).toBe(404);
    expect((await all(`${org(otherOrgId)}/notes`)).map((n) => n.note_id)).not.toContain(id);
    expect((await all(`${ENT}/notes?access_type=org&pinned_repo=acme%2Fapi-gateway`)).map((n) => n.note_id)).toContain(
      id,
    );
    expect(auditActions('create_knowledge_note').at(-1)!.org_id).toBe(orgId);
  });

  it('updates a note: fields replaced, enable switch, omitted optional fields kept, null clears; audited', async () => {
    const created = (
      await sb.api.call('POST', `${org()}/notes`, {
        body: { name: 'To edit', trigger_description: 't', body: 'b', pinned_repo: 'acme/docs-site', is_enabled: true },
      })
    ).body as Note;
    const updated = await sb.api.call('PUT', `${org()}/notes/${created.note_id}`, {
      body: { name: 'Edited', trigger_description: 't2', body: 'b2', is_enabled: false },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      name: 'Edited',
      trigger: 't2',
      body: 'b2',
      is_enabled: false,
      pinned_repo: 'acme/docs-site',
    });
    expect(updated.body.updated_at).toBeGreaterThanOrEqual(created.updated_at);
    expect(updated.body.created_at).toBe(created.created_at);
    const cleared = await sb.api.call('PUT', `${ENT}/notes/${created.note_id}`, {
      body: { name: 'Edited', trigger_description: 't2', body: 'b2', pinned_repo: null },
    });
    expect(cleared.body).toMatchObject({ pinned_repo: null, is_enabled: false });
    expect(JSON.parse(auditActions('update_knowledge_note').at(-1)!.data)).toMatchObject({ note_id: created.note_id });
  });

  it('deletes a note and answers with it; then 404; audited', async () => {
    const created = (
      await sb.api.call('POST', `${ENT}/notes`, { body: { name: 'Short-lived', trigger_description: '', body: 'b' } })
    ).body as Note;
    const del = await sb.api.call('DELETE', `${ENT}/notes/${created.note_id}`);
    expect(del.status).toBe(200);
    expect(del.body.note_id).toBe(created.note_id);
    expect((await sb.api.get(`${ENT}/notes/${created.note_id}`)).status).toBe(404);
    expect((await sb.api.call('DELETE', `${ENT}/notes/${created.note_id}`)).status).toBe(404);
    expect(JSON.parse(auditActions('delete_knowledge_note').at(-1)!.data)).toMatchObject({ note_id: created.note_id });
  });

  it('an organization cannot touch an enterprise note or another organization’s note', async () => {
    const ent = (await all(`${ENT}/notes?access_type=enterprise`))[0]!;
    expect((await sb.api.get(`${org()}/notes/${ent.note_id}`)).status).toBe(404);
    expect((await sb.api.call('DELETE', `${org()}/notes/${ent.note_id}`)).status).toBe(404);
    expect((await sb.api.get(`${ENT}/notes/${ent.note_id}`)).status).toBe(200);
  });

  it.each([
    ['no name', { trigger_description: 't', body: 'b' }, 'name'],
    ['an empty name', { name: '  ', trigger_description: 't', body: 'b' }, 'name'],
    ['no body', { name: 'n', trigger_description: 't' }, 'body'],
    ['an empty body', { name: 'n', trigger_description: 't', body: '' }, 'body'],
    ['no trigger', { name: 'n', body: 'b' }, 'trigger_description'],
    ['a name over 200 characters', { name: 'x'.repeat(201), trigger_description: 't', body: 'b' }, 'name'],
    ['an unknown field', { name: 'n', trigger_description: 't', body: 'b', color: 'red' }, ''],
    ['an unknown folder', { name: 'n', trigger_description: 't', body: 'b', folder_id: 'folder-nope' }, 'folder_id'],
  ])('422 on a note with %s, naming the field; nothing is created', async (_what, body, field) => {
    const before = (sb.db.prepare('SELECT count(*) AS n FROM knowledge_notes').get() as { n: number }).n;
    const res = await sb.api.call('POST', `${ENT}/notes`, { body });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body.errors.map((e: { loc: unknown[] }) => e.loc.slice(1).join('.'))).toContain(field);
    expect((sb.db.prepare('SELECT count(*) AS n FROM knowledge_notes').get() as { n: number }).n).toBe(before);
  });

  it('422 on an update without a name', async () => {
    const note = (await all(`${ENT}/notes`))[0]!;
    const res = await sb.api.call('PUT', `${ENT}/notes/${note.note_id}`, {
      body: { trigger_description: 't', body: 'b' },
    });
    expect(res.status).toBe(422);
  });
});

describe('folders', () => {
  it('answers the nested tree with note counts that match the lists', async () => {
    const tree = (await sb.api.get(`${ENT}/folders`)).body as {
      folders: Array<{
        folder_id: string;
        name: string;
        path: string;
        note_count: number;
        parent_folder_id: string | null;
      }>;
      root_note_count: number;
    };
    const byId = new Map(tree.folders.map((f) => [f.folder_id, f]));
    const nested = tree.folders.find((f) => f.path === '/Engineering/Backend/Payments')!;
    expect(nested.name).toBe('Payments');
    expect(byId.get(nested.parent_folder_id!)!.path).toBe('/Engineering/Backend');
    const notes = await all(`${ENT}/notes`);
    expect(tree.root_note_count).toBe(notes.filter((n) => n.folder_id === null).length);
    expect(nested.note_count).toBe(notes.filter((n) => n.folder_id === nested.folder_id).length);
    const orgTree = (await sb.api.get(`${org()}/folders`)).body as typeof tree;
    const orgNotes = await all(`${org()}/notes`);
    expect(orgTree.root_note_count + orgTree.folders.reduce((s, f) => s + f.note_count, 0)).toBe(orgNotes.length);
  });
});

describe('permissions', () => {
  it('the viewer gets 403 naming ManageAccountKnowledge on every knowledge operation', async () => {
    for (const [method, path] of [
      ['GET', `${ENT}/notes`],
      ['GET', `${ENT}/folders`],
      ['POST', `${ENT}/notes`],
      ['GET', `${org()}/notes`],
      ['POST', `${org()}/notes`],
    ] as const) {
      const res = await sb.api.call(method, path, {
        token: VIEWER,
        body: method === 'POST' ? { name: 'n', trigger_description: 't', body: 'b' } : undefined,
      });
      expect(res.status).toBe(403);
      expect(res.body.detail).toContain('ManageAccountKnowledge');
    }
    expect((await sb.api.get(`${ENT}/notes`, ADMIN)).status).toBe(200);
  });
});

describe('every failing field at once', () => {
  it('reports a missing name, body and trigger together', async () => {
    const res = await sb.api.call('POST', `${org()}/notes`, { body: {} });
    expect(res.status).toBe(422);
    const locs = res.body.errors.map((e: { loc: string[] }) => e.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.name', 'body.body', 'body.trigger_description']));
  });
});

describe('a body that is not an object', () => {
  it.each(['null', '[]', '"note"', '42'])('answers 422, never 500, for %s', async (raw) => {
    const res = await sb.api.call('POST', `${org()}/notes`, {
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
  });
});

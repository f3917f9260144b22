/**
 * Knowledge notes in the sandbox: one enterprise-wide folder tree, notes of both access types (enterprise
 * notes and each organization's org notes), the enterprise and organization lists with their filters, and
 * get/create/update/delete, each mutation audited.
 */
import type { FolderTree, KnowledgeNote, KnowledgeNoteBody } from '../../../api/operations/knowledge';
import type { SandboxContext, SandboxModule } from '../../context';
import { paginate } from '../../cursor';
import type { Db } from '../../../node/db';
import { notFound, unprocessable } from '../../../node/problem-writer';
import { seedRepositoryPathsForOrg } from '../indexing/seed-data';
import { ENTERPRISE_NOTES, ORG_NOTES, SEED_FOLDERS, type NoteTemplate } from './seed-data';

interface NoteRow extends Record<string, unknown> {
  note_id: string;
  name: string;
  body: string;
  trigger: string;
  macro: string | null;
  is_enabled: number;
  access_type: 'org' | 'enterprise';
  org_id: string | null;
  folder_id: string | null;
  folder_path: string;
  pinned_repo: string | null;
  created_at: number;
  updated_at: number;
}

/** Every note with its folder path; a subquery so filters and the cursor can use `folder_path` and `sort_name`. */
const NOTES_SELECT = `SELECT * FROM (
  SELECT n.*, coalesce(f.path, '/') AS folder_path, lower(n.name) AS sort_name
  FROM knowledge_notes n LEFT JOIN knowledge_folders f ON f.folder_id = n.folder_id
) t`;

const toNote = (r: NoteRow): KnowledgeNote => ({
  note_id: r.note_id,
  name: r.name,
  body: r.body,
  trigger: r.trigger,
  macro: r.macro,
  is_enabled: r.is_enabled === 1,
  access_type: r.access_type,
  org_id: r.org_id,
  folder_id: r.folder_id,
  folder_path: r.folder_path,
  pinned_repo: r.pinned_repo,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** `Engineering/Backend/` → `/Engineering/Backend`; `` and `/` → `/` (the root: notes in no folder). */
export function normalizeFolderPath(path: string): string {
  const parts = path
    .split('/')
    .map((p) => p.trim())
    .filter(Boolean);
  return `/${parts.join('/')}`;
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

interface ListFilters {
  search?: string | null;
  folder_path?: string | null;
  pinned_repo?: string | null;
  access_type?: 'org' | 'enterprise' | null;
  after?: string | null;
  first: number;
}

function listNotes(db: Db, scope: string, base: Array<[string, ...(string | number | null)[]]>, q: ListFilters) {
  const where = [...base];
  if (q.access_type) where.push(['access_type = ?', q.access_type]);
  if (q.search?.trim()) {
    const like = `%${escapeLike(q.search.trim().toLowerCase())}%`;
    where.push([
      `(lower(name) LIKE ? ESCAPE '\\' OR lower(trigger) LIKE ? ESCAPE '\\' OR lower(body) LIKE ? ESCAPE '\\')`,
      like,
      like,
      like,
    ]);
  }
  if (q.folder_path != null && q.folder_path !== '') {
    const path = normalizeFolderPath(q.folder_path);
    where.push(path === '/' ? ['folder_id IS NULL'] : ['folder_path = ?', path]);
  }
  if (q.pinned_repo) where.push(['pinned_repo = ?', q.pinned_repo]);
  return paginate<NoteRow, KnowledgeNote>(db, {
    scope,
    select: NOTES_SELECT,
    where,
    order: [
      { col: 'sort_name', dir: 'asc' },
      { col: 'note_id', dir: 'asc' },
    ],
    first: q.first,
    after: q.after,
    map: toNote,
  });
}

function getNote(db: Db, noteId: string, orgId?: string): NoteRow {
  const row = db.prepare(`${NOTES_SELECT} WHERE note_id = ?`).get(noteId) as NoteRow | undefined;
  // An organization's endpoints see only its own org notes.
  if (!row || (orgId !== undefined && (row.access_type !== 'org' || row.org_id !== orgId))) {
    throw notFound('Knowledge note', noteId);
  }
  return row;
}

function folderTree(db: Db, orgId?: string): FolderTree {
  const noteFilter = orgId === undefined ? '' : `WHERE access_type = 'org' AND org_id = ?`;
  const args = orgId === undefined ? [] : [orgId];
  const counts = new Map(
    (
      db
        .prepare(`SELECT folder_id, count(*) AS n FROM knowledge_notes ${noteFilter} GROUP BY folder_id`)
        .all(...args) as Array<{ folder_id: string | null; n: number }>
    ).map((r) => [r.folder_id, r.n]),
  );
  const folders = db
    .prepare('SELECT folder_id, name, path, parent_folder_id FROM knowledge_folders ORDER BY path')
    .all() as Array<{ folder_id: string; name: string; path: string; parent_folder_id: string | null }>;
  return {
    folders: folders.map((f) => ({ ...f, note_count: counts.get(f.folder_id) ?? 0 })),
    root_note_count: counts.get(null) ?? 0,
  };
}

/** The checks the contract cannot make: the folder must exist. Returns the values to store. */
function readBody(db: Db, body: KnowledgeNoteBody) {
  if (
    body.folder_id != null &&
    !db.prepare('SELECT 1 FROM knowledge_folders WHERE folder_id = ?').get(body.folder_id)
  ) {
    throw unprocessable([
      { loc: ['body', 'folder_id'], msg: `folder_id ${body.folder_id} is not a knowledge folder`, type: 'not_found' },
    ]);
  }
  return {
    name: body.name.trim(),
    trigger: body.trigger_description ?? body.trigger ?? '',
    body: body.body,
  };
}

function createNote(
  ctx: SandboxContext,
  body: KnowledgeNoteBody,
  orgId: string | null,
  principal: Parameters<SandboxContext['audit']>[0]['principal'],
) {
  const { db } = ctx;
  const fields = readBody(db, body);
  const noteId = ctx.newId('note-');
  const now = ctx.now();
  db.prepare(
    `INSERT INTO knowledge_notes (note_id, name, body, trigger, macro, is_enabled, access_type, org_id, folder_id, pinned_repo, created_at, updated_at)
     VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    noteId,
    fields.name,
    fields.body,
    fields.trigger,
    body.is_enabled === false ? 0 : 1,
    orgId === null ? 'enterprise' : 'org',
    orgId,
    body.folder_id ?? null,
    body.pinned_repo?.trim() || null,
    now,
    now,
  );
  const note = toNote(getNote(db, noteId));
  ctx.audit({
    action: 'create_knowledge_note',
    org_id: orgId,
    principal,
    data: { note_id: noteId, name: note.name, access_type: note.access_type },
  });
  return note;
}

function updateNote(
  ctx: SandboxContext,
  noteId: string,
  body: KnowledgeNoteBody,
  orgId: string | undefined,
  principal: Parameters<SandboxContext['audit']>[0]['principal'],
) {
  const { db } = ctx;
  const current = getNote(db, noteId, orgId);
  const fields = readBody(db, body);
  // Omitted optional fields keep their value; null clears them.
  const folderId = body.folder_id === undefined ? current.folder_id : body.folder_id;
  const pinned = body.pinned_repo === undefined ? current.pinned_repo : body.pinned_repo?.trim() || null;
  const enabled = body.is_enabled == null ? current.is_enabled : body.is_enabled ? 1 : 0;
  db.prepare(
    `UPDATE knowledge_notes SET name = ?, body = ?, trigger = ?, is_enabled = ?, folder_id = ?, pinned_repo = ?, updated_at = ?
     WHERE note_id = ?`,
  ).run(
    fields.name,
    fields.body,
    fields.trigger,
    enabled,
    folderId,
    pinned,
    Math.max(ctx.now(), current.updated_at),
    noteId,
  );
  const note = toNote(getNote(db, noteId));
  ctx.audit({
    action: 'update_knowledge_note',
    org_id: current.org_id,
    principal,
    data: { note_id: noteId, name: note.name, access_type: note.access_type, is_enabled: note.is_enabled },
  });
  return note;
}

function deleteNote(
  ctx: SandboxContext,
  noteId: string,
  orgId: string | undefined,
  principal: Parameters<SandboxContext['audit']>[0]['principal'],
) {
  const row = getNote(ctx.db, noteId, orgId);
  ctx.db.prepare('DELETE FROM knowledge_notes WHERE note_id = ?').run(noteId);
  ctx.audit({
    action: 'delete_knowledge_note',
    org_id: row.org_id,
    principal,
    data: { note_id: noteId, name: row.name, access_type: row.access_type },
  });
  return toNote(row);
}

export const knowledgeModule: SandboxModule = {
  name: 'knowledge',
  migrations: [
    {
      id: 'knowledge-001-create',
      sql: `CREATE TABLE knowledge_folders (
        folder_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        path TEXT NOT NULL UNIQUE,
        parent_folder_id TEXT REFERENCES knowledge_folders (folder_id)
      );
      CREATE TABLE knowledge_notes (
        note_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        body TEXT NOT NULL,
        trigger TEXT NOT NULL,
        macro TEXT,
        is_enabled INTEGER NOT NULL,
        access_type TEXT NOT NULL CHECK (access_type IN ('org', 'enterprise')),
        org_id TEXT,
        folder_id TEXT REFERENCES knowledge_folders (folder_id),
        pinned_repo TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX knowledge_notes_org ON knowledge_notes (org_id, access_type);
      CREATE INDEX knowledge_notes_folder ON knowledge_notes (folder_id);`,
    },
  ],
  seed({ db, rng, now, orgIds }) {
    const folderIds = new Map<string, string>();
    const insertFolder = db.prepare(
      'INSERT INTO knowledge_folders (folder_id, name, path, parent_folder_id) VALUES (?, ?, ?, ?)',
    );
    for (const path of SEED_FOLDERS) {
      const id = `folder-${rng.hex(12)}`;
      const parent = path.slice(0, path.lastIndexOf('/'));
      insertFolder.run(
        id,
        path.slice(path.lastIndexOf('/') + 1),
        path,
        parent ? (folderIds.get(parent) ?? null) : null,
      );
      folderIds.set(path, id);
    }
    const insert = db.prepare(
      `INSERT INTO knowledge_notes (note_id, name, body, trigger, macro, is_enabled, access_type, org_id, folder_id, pinned_repo, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const t = now();
    const add = (tpl: NoteTemplate, orgId: string | null, pinnedRepo: string | null) => {
      const created = t - rng.int(5, 400) * 86_400 - rng.int(0, 86_000);
      const updated = rng.chance(0.6) ? Math.min(t - 60, created + rng.int(0, 200) * 86_400) : created;
      insert.run(
        `note-${rng.hex(12)}`,
        tpl.name,
        tpl.body,
        tpl.trigger,
        tpl.macro ?? null,
        rng.chance(0.85) ? 1 : 0,
        orgId === null ? 'enterprise' : 'org',
        orgId,
        tpl.folder ? (folderIds.get(tpl.folder) ?? null) : null,
        pinnedRepo,
        created,
        updated,
      );
    };
    for (const tpl of ENTERPRISE_NOTES) add(tpl, null, null);
    orgIds().forEach((orgId, i) => {
      const repos = seedRepositoryPathsForOrg(i);
      for (const tpl of rng.sample(ORG_NOTES, 4 + (i % 4))) {
        add(tpl, orgId, tpl.pin ? rng.pick(repos.slice(0, 6)) : null);
      }
    });
  },
  handlers: {
    'knowledge.enterprise.list': ({ query }, { db }) => listNotes(db, 'knowledge-notes', [], query),
    'knowledge.list': ({ params, query }, { db }) =>
      listNotes(
        db,
        `knowledge-notes:${params.org_id}`,
        [["access_type = 'org'"], ['org_id = ?', params.org_id]],
        query,
      ),
    'knowledge.enterprise.create': ({ body, principal }, ctx) => createNote(ctx, body, null, principal),
    'knowledge.create': ({ params, body, principal }, ctx) => createNote(ctx, body, params.org_id, principal),
    'knowledge.enterprise.get': ({ params }, { db }) => toNote(getNote(db, params.note_id)),
    'knowledge.get': ({ params }, { db }) => toNote(getNote(db, params.note_id, params.org_id)),
    'knowledge.enterprise.update': ({ params, body, principal }, ctx) =>
      updateNote(ctx, params.note_id, body, undefined, principal),
    'knowledge.update': ({ params, body, principal }, ctx) =>
      updateNote(ctx, params.note_id, body, params.org_id, principal),
    'knowledge.enterprise.delete': ({ params, principal }, ctx) =>
      deleteNote(ctx, params.note_id, undefined, principal),
    'knowledge.delete': ({ params, principal }, ctx) => deleteNote(ctx, params.note_id, params.org_id, principal),
    'knowledge.enterprise.folders.list': (_input, { db }) => folderTree(db),
    'knowledge.folders.list': ({ params }, { db }) => folderTree(db, params.org_id),
  },
};

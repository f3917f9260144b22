/** The sessions tables: schema, row ↔ record mapping, list filters and message threads. */
import type { Session, SessionMessage } from '../../../api/operations/sessions';
import type { Db, Migration } from '../../../node/db';

export const SESSION_URL_BASE = 'https://app.agent-platform.example/sessions/';

export const migrations: Migration[] = [
  {
    id: 'sessions-001-create',
    sql: `CREATE TABLE sessions (
      session_id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL,
      status TEXT NOT NULL,
      status_detail TEXT,
      title TEXT,
      prompt TEXT NOT NULL,
      origin TEXT NOT NULL,
      category TEXT,
      agent_mode TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      tags TEXT NOT NULL DEFAULT '[]',
      acus_consumed REAL NOT NULL DEFAULT 0,
      pull_requests TEXT NOT NULL DEFAULT '[]',
      is_archived INTEGER NOT NULL DEFAULT 0,
      is_advanced INTEGER NOT NULL DEFAULT 0,
      user_id TEXT,
      service_user_id TEXT,
      playbook_id TEXT,
      parent_session_id TEXT,
      repos TEXT NOT NULL DEFAULT '[]',
      structured_output TEXT,
      -- Keys (never values) of the temporary session secrets, and the other create parameters.
      secret_keys TEXT NOT NULL DEFAULT '[]',
      create_params TEXT NOT NULL DEFAULT '{}',
      terminated_at INTEGER,
      -- Simulation: when the next step is due (ms), running steps left, and how the run ends.
      sim_next_ms INTEGER,
      sim_steps INTEGER NOT NULL DEFAULT 0,
      sim_outcome TEXT,
      insights_status TEXT NOT NULL DEFAULT 'not_requested',
      insights_ready_ms INTEGER,
      analysis TEXT
    );
    CREATE INDEX sessions_org_created ON sessions (org_id, created_at, session_id);
    CREATE INDEX sessions_created ON sessions (created_at, session_id);
    CREATE INDEX sessions_parent ON sessions (parent_session_id);
    CREATE INDEX sessions_sim_due ON sessions (sim_next_ms) WHERE sim_next_ms IS NOT NULL;
    CREATE INDEX sessions_insights_due ON sessions (insights_ready_ms) WHERE insights_ready_ms IS NOT NULL;
    CREATE TABLE session_messages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      event_id TEXT NOT NULL UNIQUE,
      session_id TEXT NOT NULL REFERENCES sessions (session_id),
      source TEXT NOT NULL,
      message TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX session_messages_thread ON session_messages (session_id, seq);`,
  },
];

export interface SessionRow extends Record<string, unknown> {
  session_id: string;
  org_id: string;
  status: string;
  status_detail: string | null;
  title: string | null;
  prompt: string;
  origin: string;
  category: string | null;
  agent_mode: string | null;
  created_at: number;
  updated_at: number;
  tags: string;
  acus_consumed: number;
  pull_requests: string;
  is_archived: number;
  is_advanced: number;
  user_id: string | null;
  service_user_id: string | null;
  playbook_id: string | null;
  parent_session_id: string | null;
  repos: string;
  structured_output: string | null;
  secret_keys: string;
  create_params: string;
  terminated_at: number | null;
  sim_next_ms: number | null;
  sim_steps: number;
  sim_outcome: string | null;
  insights_status: string;
  insights_ready_ms: number | null;
  analysis: string | null;
  /** JSON array, from the child subquery of SESSION_SELECT. */
  child_ids?: string | null;
}

/** Every column plus the child sessions, as a JSON array. */
export const SESSION_SELECT = `SELECT s.*, (SELECT json_group_array(c.session_id) FROM sessions c WHERE c.parent_session_id = s.session_id) AS child_ids FROM sessions s`;

const parse = <T>(text: string | null | undefined, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

export function toSession(r: SessionRow): Session {
  return {
    session_id: r.session_id,
    url: SESSION_URL_BASE + r.session_id,
    status: r.status,
    status_detail: r.status_detail,
    org_id: r.org_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
    tags: parse<string[]>(r.tags, []),
    acus_consumed: Math.round(r.acus_consumed * 100) / 100,
    pull_requests: parse<Session['pull_requests']>(r.pull_requests, []),
    is_archived: r.is_archived === 1,
    is_advanced: r.is_advanced === 1,
    title: r.title,
    prompt: r.prompt,
    user_id: r.user_id,
    service_user_id: r.service_user_id,
    playbook_id: r.playbook_id,
    parent_session_id: r.parent_session_id,
    child_session_ids: parse<string[]>(r.child_ids, []),
    structured_output: parse<Record<string, unknown> | null>(r.structured_output, null),
    origin: r.origin,
    category: r.category,
    attachment_urls: parse<{ attachment_urls?: string[] }>(r.create_params, {}).attachment_urls ?? [],
  };
}

export function getRow(db: Db, sessionId: string, orgId?: string): SessionRow | undefined {
  return orgId
    ? (db.prepare(`${SESSION_SELECT} WHERE s.session_id = ? AND s.org_id = ?`).get(sessionId, orgId) as
        SessionRow | undefined)
    : (db.prepare(`${SESSION_SELECT} WHERE s.session_id = ?`).get(sessionId) as SessionRow | undefined);
}

export interface SessionFilters {
  org_ids?: string[] | undefined;
  origins?: string[] | undefined;
  session_ids?: string[] | undefined;
  created_after?: number | undefined;
  created_before?: number | undefined;
  updated_after?: number | undefined;
  updated_before?: number | undefined;
  tags?: string[] | undefined;
  playbook_id?: string | undefined;
  user_ids?: string[] | undefined;
  service_user_ids?: string[] | undefined;
  repo_names?: string[] | undefined;
  is_archived?: boolean | undefined;
  status?: string[] | undefined;
}

type Cond = [string, ...Array<string | number | null>];

const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/**
 * WHERE conditions of the list filters. Time bounds are half-open: `*_after` inclusive, `*_before` exclusive.
 * Array filters match any of their values; an empty array matches nothing is never sent (absent = no filter).
 */
export function filterConditions(f: SessionFilters): Cond[] {
  const out: Cond[] = [];
  const inList = (col: string, values: string[] | undefined) => {
    if (values && values.length > 0) out.push([`${col} IN (${marks(values.length)})`, ...values]);
  };
  const anyJson = (col: string, values: string[] | undefined) => {
    if (values && values.length > 0) {
      out.push([`EXISTS (SELECT 1 FROM json_each(${col}) j WHERE j.value IN (${marks(values.length)}))`, ...values]);
    }
  };
  inList('s.org_id', f.org_ids);
  inList('s.origin', f.origins);
  inList('s.session_id', f.session_ids);
  inList('s.user_id', f.user_ids);
  inList('s.service_user_id', f.service_user_ids);
  inList('s.status', f.status);
  anyJson('s.tags', f.tags);
  anyJson('s.repos', f.repo_names);
  if (f.created_after !== undefined) out.push(['s.created_at >= ?', f.created_after]);
  if (f.created_before !== undefined) out.push(['s.created_at < ?', f.created_before]);
  if (f.updated_after !== undefined) out.push(['s.updated_at >= ?', f.updated_after]);
  if (f.updated_before !== undefined) out.push(['s.updated_at < ?', f.updated_before]);
  if (f.playbook_id !== undefined) out.push(['s.playbook_id = ?', f.playbook_id]);
  if (f.is_archived !== undefined) out.push(['s.is_archived = ?', f.is_archived ? 1 : 0]);
  return out;
}

export interface MessageRow extends Record<string, unknown> {
  seq: number;
  event_id: string;
  session_id: string;
  source: string;
  message: string;
  created_at: number;
}

export const toMessage = (r: MessageRow): SessionMessage => ({
  event_id: r.event_id,
  message: r.message,
  source: r.source,
  created_at: r.created_at,
});

export function addMessage(
  db: Db,
  eventId: string,
  sessionId: string,
  source: 'agent' | 'user',
  message: string,
  at: number,
): void {
  db.prepare(
    'INSERT INTO session_messages (event_id, session_id, source, message, created_at) VALUES (?, ?, ?, ?, ?)',
  ).run(eventId, sessionId, source, message, at);
}

export function countMessages(db: Db, sessionId: string): { agent: number; user: number } {
  const rows = db
    .prepare('SELECT source, count(*) AS n FROM session_messages WHERE session_id = ? GROUP BY source')
    .all(sessionId) as Array<{ source: string; n: number }>;
  return {
    agent: rows.find((r) => r.source === 'agent')?.n ?? 0,
    user: rows.find((r) => r.source === 'user')?.n ?? 0,
  };
}

/**
 * The alerts' store: rules, the state of each condition a rule watches, notifications, webhook destinations and
 * deliveries with their attempt log — in console.db (SQLite) or PostgreSQL, shared by replicas.
 *
 * Once across replicas: a condition changes state by one conditional statement (`UPDATE … WHERE status <> 'firing'
 * RETURNING`, or `INSERT … ON CONFLICT DO NOTHING RETURNING`), and only the replica whose statement changed the
 * row writes the notification and its deliveries, in the same transaction; notifications also carry a unique
 * (rule, subject, episode, state) key. A delivery is claimed by a conditional update on its claim's expiry, so
 * two replicas never send the same attempt.
 *
 * Each operation is written once, as a generator of statements (`$1`-style parameters), and run by either
 * dialect's driver: synchronously inside a better-sqlite3 transaction, or asynchronously in a PostgreSQL one.
 */
import { randomBytes } from 'node:crypto';
import type { Db, Migration } from '../../../node/db';
import type { PgDatabase } from '../storage/postgres';

// ---------------------------------------------------------------- migrations

const tables = (id: string, bigint: string) => `
CREATE TABLE alert_rules (
  rule_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  kind TEXT NOT NULL,
  config_json TEXT NOT NULL,
  destination_ids_json TEXT NOT NULL,
  muted INTEGER NOT NULL DEFAULT 0,
  snoozed_until ${bigint},
  created_at ${bigint} NOT NULL,
  made_by TEXT,
  made_by_kind TEXT,
  last_evaluated_at ${bigint},
  last_error TEXT,
  seeded INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE alert_states (
  rule_id TEXT NOT NULL,
  subject TEXT NOT NULL,
  status TEXT NOT NULL,
  episode INTEGER NOT NULL,
  notified INTEGER NOT NULL,
  since ${bigint} NOT NULL,
  PRIMARY KEY (rule_id, subject)
);
CREATE TABLE alert_notifications (
  notification_id ${id},
  rule_id TEXT NOT NULL,
  rule_name TEXT NOT NULL,
  kind TEXT NOT NULL,
  state TEXT NOT NULL,
  subject TEXT NOT NULL,
  episode INTEGER NOT NULL,
  title TEXT NOT NULL,
  detail TEXT NOT NULL,
  link TEXT NOT NULL,
  created_at ${bigint} NOT NULL,
  read_at ${bigint},
  acknowledged_at ${bigint},
  acknowledged_by TEXT,
  UNIQUE (rule_id, subject, episode, state)
);
CREATE INDEX alert_notifications_unread ON alert_notifications (read_at);
CREATE TABLE alert_destinations (
  destination_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  format TEXT NOT NULL,
  url TEXT NOT NULL,
  url_display TEXT NOT NULL,
  secret TEXT NOT NULL,
  created_at ${bigint} NOT NULL,
  made_by TEXT,
  made_by_kind TEXT,
  deleted INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE alert_deliveries (
  delivery_id ${id},
  destination_id TEXT NOT NULL,
  notification_id ${bigint} NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at ${bigint} NOT NULL,
  claimed_until ${bigint} NOT NULL DEFAULT 0,
  created_at ${bigint} NOT NULL,
  UNIQUE (destination_id, notification_id)
);
CREATE INDEX alert_deliveries_due ON alert_deliveries (status, next_attempt_at);
CREATE TABLE alert_delivery_attempts (
  attempt_id ${id},
  delivery_id ${bigint} NOT NULL,
  destination_id TEXT NOT NULL,
  notification_id ${bigint} NOT NULL,
  attempt INTEGER NOT NULL,
  at ${bigint} NOT NULL,
  outcome TEXT NOT NULL,
  response_code INTEGER,
  error TEXT
);
CREATE TABLE alert_evaluation_lease (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at ${bigint} NOT NULL
);`;

export const alertMigrations: Migration[] = [
  { id: 'alerts-001', sql: tables('INTEGER PRIMARY KEY AUTOINCREMENT', 'INTEGER') },
];
export const alertPgMigrations: Migration[] = [{ id: 'alerts-001', sql: tables('BIGSERIAL PRIMARY KEY', 'BIGINT') }];

// ---------------------------------------------------------------- rows

export interface RuleRow {
  rule_id: string;
  name: string;
  kind: string;
  config: Record<string, unknown>;
  destination_ids: string[];
  muted: boolean;
  snoozed_until: number | null;
  created_at: number;
  made_by: string | null;
  made_by_kind: string | null;
  last_evaluated_at: number | null;
  last_error: string | null;
  seeded: boolean;
  firing: number;
}

export interface NotificationRow {
  notification_id: number;
  rule_id: string;
  rule_name: string;
  kind: string;
  state: 'firing' | 'cleared';
  subject: string;
  title: string;
  detail: string;
  link: string;
  created_at: number;
  read_at: number | null;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
}

export interface DestinationRow {
  destination_id: string;
  name: string;
  format: 'json' | 'slack';
  url: string;
  url_display: string;
  secret: string;
  created_at: number;
  made_by: string | null;
  made_by_kind: string | null;
}

export interface DeliveryRow {
  delivery_id: number;
  destination_id: string;
  notification_id: number;
  body: string;
  attempts: number;
}

export interface AttemptRow {
  attempt_id: number;
  delivery_id: number;
  destination_id: string;
  destination_name: string;
  notification_id: number;
  title: string;
  attempt: number;
  at: number;
  outcome: 'delivered' | 'retrying' | 'failed';
  response_code: number | null;
  error: string | null;
}

/** A change of one condition's state, with what to say about it. */
export interface Transition {
  rule: Pick<RuleRow, 'rule_id' | 'name' | 'kind' | 'destination_ids'>;
  subject: string;
  to: 'firing' | 'cleared';
  at: number;
  /** Muted or snoozed: the state changes, nobody is told. */
  silent: boolean;
  title: string;
  detail: string;
  link: string;
  /** The webhook body for a destination's format, once the notification's number is known. */
  bodyFor: (format: 'json' | 'slack', notificationId: number) => string;
}

// ---------------------------------------------------------------- the statement driver

type Row = Record<string, unknown>;
interface Stmt {
  sql: string;
  params: unknown[];
}
type Op<T> = Generator<Stmt, T, Row[]>;

function* q(sql: string, ...params: unknown[]): Op<Row[]> {
  return yield { sql, params };
}

interface Driver {
  run<T>(op: () => Op<T>): Promise<T>;
  /** The same in one transaction. */
  tx<T>(op: () => Op<T>): Promise<T>;
}

function sqliteDriver(db: Db): Driver {
  const cache = new Map<string, { stmt: ReturnType<typeof db.prepare<unknown[]>>; order: number[] }>();
  const exec = (s: Stmt): Row[] => {
    let entry = cache.get(s.sql);
    if (!entry) {
      const order: number[] = [];
      const text = s.sql.replace(/\$(\d+)/g, (_, n: string) => {
        order.push(Number(n) - 1);
        return '?';
      });
      entry = { stmt: db.prepare<unknown[]>(text), order };
      cache.set(s.sql, entry);
    }
    const args = entry.order.map((i) => {
      const v = s.params[i];
      return typeof v === 'boolean' ? Number(v) : (v ?? null);
    });
    return entry.stmt.reader ? (entry.stmt.all(...args) as Row[]) : (entry.stmt.run(...args), []);
  };
  const drive = <T>(gen: Op<T>): T => {
    let next = gen.next();
    while (!next.done) next = gen.next(exec(next.value));
    return next.value;
  };
  return {
    run: async (op) => drive(op()),
    // better-sqlite3 transactions are synchronous, so nothing else runs on this connection in between.
    tx: async (op) => db.transaction(() => drive(op())).immediate(),
  };
}

function pgDriver(db: PgDatabase): Driver {
  const norm = (params: unknown[]) => params.map((v) => (typeof v === 'boolean' ? Number(v) : (v ?? null)));
  const drive = async <T>(gen: Op<T>, query: (sql: string, params: unknown[]) => Promise<Row[]>): Promise<T> => {
    let next = gen.next();
    while (!next.done) next = gen.next(await query(next.value.sql, norm(next.value.params)));
    return next.value;
  };
  return {
    run: (op) => drive(op(), (sql, params) => db.query<Row>(sql, params)),
    tx: (op) => db.transaction((query) => drive(op(), (sql, params) => query<Row>(sql, params))),
  };
}

// ---------------------------------------------------------------- the store

export interface AlertStore {
  listRules(): Promise<RuleRow[]>;
  getRule(ruleId: string): Promise<RuleRow | undefined>;
  countRules(): Promise<number>;
  createRule(
    row: Omit<RuleRow, 'rule_id' | 'last_evaluated_at' | 'last_error' | 'seeded' | 'firing'>,
  ): Promise<RuleRow>;
  updateRule(
    ruleId: string,
    patch: Partial<Pick<RuleRow, 'name' | 'muted' | 'snoozed_until' | 'destination_ids'>>,
  ): Promise<RuleRow | undefined>;
  deleteRule(ruleId: string): Promise<boolean>;
  noteEvaluated(ruleId: string, at: number, error: string | null): Promise<void>;
  /** Records conditions standing when a rule first looks (a baseline: "newly" is measured from here). */
  seed(ruleId: string, subjects: readonly string[], at: number): Promise<void>;
  /** Subjects of a rule in state `firing`. */
  firing(ruleId: string): Promise<string[]>;
  /** Changes one condition's state; the notification when this call made the change (null when another did). */
  transition(t: Transition): Promise<NotificationRow | null | 'silent'>;

  notifications(opts: { first: number; after?: number; unread?: boolean }): Promise<NotificationRow[]>;
  unreadCount(): Promise<number>;
  markRead(id: number, at: number): Promise<NotificationRow | undefined>;
  acknowledge(id: number, at: number, by: string | null): Promise<NotificationRow | undefined>;
  markAllRead(at: number): Promise<void>;

  listDestinations(): Promise<DestinationRow[]>;
  countDestinations(): Promise<number>;
  createDestination(row: Omit<DestinationRow, 'destination_id'>): Promise<DestinationRow>;
  deleteDestination(id: string): Promise<boolean>;

  /**
   * Claims up to `max` deliveries due at `nowMs` until `claimUntilMs` (epoch milliseconds); another replica cannot
   * claim them meanwhile.
   */
  claimDue(
    now: number,
    claimUntil: number,
    max: number,
  ): Promise<Array<DeliveryRow & { destination: DestinationRow | null }>>;
  /** Records an attempt and the delivery's next state. */
  recordAttempt(input: {
    delivery: DeliveryRow;
    /** Unix seconds. */
    at: number;
    outcome: AttemptRow['outcome'];
    responseCode: number | null;
    error: string | null;
    /** Epoch milliseconds of the next attempt (retrying only). */
    nextAttemptAt: number | null;
  }): Promise<void>;
  attempts(opts: { first: number; after?: number; destinationId?: string }): Promise<AttemptRow[]>;

  /** Takes the evaluation lease for `ms` (one replica evaluates at a time); false when another holds it. */
  tryLease(holder: string, nowMs: number, ms: number): Promise<boolean>;
  releaseLease(holder: string): Promise<void>;
}

const newId = (prefix: string) => `${prefix}-${randomBytes(8).toString('hex')}`;

function ruleOf(r: Row): RuleRow {
  return {
    rule_id: String(r.rule_id),
    name: String(r.name),
    kind: String(r.kind),
    config: JSON.parse(String(r.config_json)) as Record<string, unknown>,
    destination_ids: JSON.parse(String(r.destination_ids_json)) as string[],
    muted: Number(r.muted) === 1,
    snoozed_until: r.snoozed_until === null ? null : Number(r.snoozed_until),
    created_at: Number(r.created_at),
    made_by: (r.made_by as string | null) ?? null,
    made_by_kind: (r.made_by_kind as string | null) ?? null,
    last_evaluated_at: r.last_evaluated_at === null ? null : Number(r.last_evaluated_at),
    last_error: (r.last_error as string | null) ?? null,
    seeded: Number(r.seeded) === 1,
    firing: Number(r.firing ?? 0),
  };
}

function notificationOf(r: Row): NotificationRow {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    notification_id: Number(r.notification_id),
    rule_id: String(r.rule_id),
    rule_name: String(r.rule_name),
    kind: String(r.kind),
    state: r.state === 'cleared' ? 'cleared' : 'firing',
    subject: String(r.subject),
    title: String(r.title),
    detail: String(r.detail),
    link: String(r.link),
    created_at: Number(r.created_at),
    read_at: n(r.read_at),
    acknowledged_at: n(r.acknowledged_at),
    acknowledged_by: (r.acknowledged_by as string | null) ?? null,
  };
}

function destinationOf(r: Row): DestinationRow {
  return {
    destination_id: String(r.destination_id),
    name: String(r.name),
    format: r.format === 'slack' ? 'slack' : 'json',
    url: String(r.url),
    url_display: String(r.url_display),
    secret: String(r.secret),
    created_at: Number(r.created_at),
    made_by: (r.made_by as string | null) ?? null,
    made_by_kind: (r.made_by_kind as string | null) ?? null,
  };
}

const RULE_SELECT = `SELECT r.*, (SELECT count(*) FROM alert_states s WHERE s.rule_id = r.rule_id AND s.status = 'firing' AND s.notified = 1) AS firing FROM alert_rules r`;

function* getRule(ruleId: string): Op<RuleRow | undefined> {
  const rows = yield* q(`${RULE_SELECT} WHERE r.rule_id = $1`, ruleId);
  return rows[0] ? ruleOf(rows[0]) : undefined;
}

function* getNotification(id: number): Op<NotificationRow | undefined> {
  const rows = yield* q('SELECT * FROM alert_notifications WHERE notification_id = $1', id);
  return rows[0] ? notificationOf(rows[0]) : undefined;
}

/** Rules, and each condition's state as a rule sees it. */
function ruleOps(
  d: Driver,
): Pick<
  AlertStore,
  | 'listRules'
  | 'getRule'
  | 'countRules'
  | 'createRule'
  | 'updateRule'
  | 'deleteRule'
  | 'noteEvaluated'
  | 'seed'
  | 'firing'
> {
  return {
    listRules: () =>
      d.run(function* () {
        return (yield* q(`${RULE_SELECT} ORDER BY r.created_at, r.rule_id`)).map(ruleOf);
      }),
    getRule: (id) => d.run(() => getRule(id)),
    countRules: () =>
      d.run(function* () {
        return Number((yield* q('SELECT count(*) AS n FROM alert_rules'))[0]?.n ?? 0);
      }),
    createRule: (row) =>
      d.run(function* () {
        const id = newId('rule');
        yield* q(
          `INSERT INTO alert_rules (rule_id, name, kind, config_json, destination_ids_json, muted, snoozed_until, created_at, made_by, made_by_kind)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          id,
          row.name,
          row.kind,
          JSON.stringify(row.config),
          JSON.stringify(row.destination_ids),
          row.muted,
          row.snoozed_until,
          row.created_at,
          row.made_by,
          row.made_by_kind,
        );
        return (yield* getRule(id))!;
      }),
    updateRule: (ruleId, patch) =>
      d.run(function* () {
        const current = yield* getRule(ruleId);
        if (!current) return undefined;
        const next = { ...current, ...patch };
        yield* q(
          'UPDATE alert_rules SET name = $1, muted = $2, snoozed_until = $3, destination_ids_json = $4 WHERE rule_id = $5',
          next.name,
          next.muted,
          next.snoozed_until,
          JSON.stringify(next.destination_ids),
          ruleId,
        );
        return yield* getRule(ruleId);
      }),
    deleteRule: (ruleId) =>
      d.tx(function* () {
        const gone = yield* q('DELETE FROM alert_rules WHERE rule_id = $1 RETURNING rule_id', ruleId);
        yield* q('DELETE FROM alert_states WHERE rule_id = $1', ruleId);
        return gone.length > 0;
      }),
    noteEvaluated: (ruleId, at, error) =>
      d.run(function* () {
        yield* q(
          'UPDATE alert_rules SET last_evaluated_at = $1, last_error = $2, seeded = 1 WHERE rule_id = $3',
          at,
          error,
          ruleId,
        );
      }),
    seed: (ruleId, subjects, at) =>
      d.tx(function* () {
        for (const s of subjects) {
          yield* q(
            `INSERT INTO alert_states (rule_id, subject, status, episode, notified, since) VALUES ($1, $2, 'firing', 0, 0, $3)
             ON CONFLICT (rule_id, subject) DO NOTHING`,
            ruleId,
            s,
            at,
          );
        }
        yield* q('UPDATE alert_rules SET seeded = 1 WHERE rule_id = $1', ruleId);
      }),
    firing: (ruleId) =>
      d.run(function* () {
        const rows = yield* q(`SELECT subject FROM alert_states WHERE rule_id = $1 AND status = 'firing'`, ruleId);
        return rows.map((r) => String(r.subject));
      }),
  };
}

/**
 * One condition's change of state, once across replicas: only the statement that changed the row writes the
 * notification and its deliveries (null: another replica's statement won, or nothing changed).
 */
function* transitionOp(t: Transition): Op<NotificationRow | null | 'silent'> {
  let won: Row | undefined;
  if (t.to === 'firing') {
    won = (yield* q(
      `INSERT INTO alert_states (rule_id, subject, status, episode, notified, since) VALUES ($1, $2, 'firing', 1, $3, $4)
         ON CONFLICT (rule_id, subject) DO NOTHING RETURNING episode, notified`,
      t.rule.rule_id,
      t.subject,
      !t.silent,
      t.at,
    ))[0];
    won ??= (yield* q(
      `UPDATE alert_states SET status = 'firing', episode = episode + 1, notified = $1, since = $2
         WHERE rule_id = $3 AND subject = $4 AND status <> 'firing' RETURNING episode, notified`,
      !t.silent,
      t.at,
      t.rule.rule_id,
      t.subject,
    ))[0];
  } else {
    // The notified flag is read as it was: a firing nobody was told about clears silently too.
    won = (yield* q(
      `UPDATE alert_states SET status = 'cleared', since = $1
         WHERE rule_id = $2 AND subject = $3 AND status = 'firing' RETURNING episode, notified`,
      t.at,
      t.rule.rule_id,
      t.subject,
    ))[0];
  }
  if (!won) return null;
  if (t.silent || Number(won.notified) !== 1) return 'silent' as const;
  const inserted = (yield* q(
    `INSERT INTO alert_notifications (rule_id, rule_name, kind, state, subject, episode, title, detail, link, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (rule_id, subject, episode, state) DO NOTHING RETURNING *`,
    t.rule.rule_id,
    t.rule.name,
    t.rule.kind,
    t.to,
    t.subject,
    Number(won.episode),
    t.title,
    t.detail,
    t.link,
    t.at,
  ))[0];
  if (!inserted) return null;
  const notification = notificationOf(inserted);
  if (t.rule.destination_ids.length > 0) {
    const destinations = yield* q(
      `SELECT destination_id, format FROM alert_destinations WHERE deleted = 0 AND destination_id IN (${t.rule.destination_ids.map((_, i) => `$${i + 1}`).join(', ')})`,
      ...t.rule.destination_ids,
    );
    for (const dst of destinations) {
      const format = dst.format === 'slack' ? 'slack' : 'json';
      yield* q(
        `INSERT INTO alert_deliveries (destination_id, notification_id, body, status, attempts, next_attempt_at, created_at)
           VALUES ($1, $2, $3, 'pending', 0, 0, $4) ON CONFLICT (destination_id, notification_id) DO NOTHING`,
        dst.destination_id,
        notification.notification_id,
        t.bodyFor(format, notification.notification_id),
        t.at,
      );
    }
  }
  return notification;
}

/** The notifications' inbox: read, acknowledged. */
function notificationOps(
  d: Driver,
): Pick<AlertStore, 'notifications' | 'unreadCount' | 'markRead' | 'acknowledge' | 'markAllRead'> {
  return {
    notifications: ({ first, after, unread }) =>
      d.run(function* () {
        const rows = yield* q(
          `SELECT * FROM alert_notifications WHERE notification_id < $1 ${unread ? 'AND read_at IS NULL' : ''}
           ORDER BY notification_id DESC LIMIT $2`,
          after ?? Number.MAX_SAFE_INTEGER,
          first,
        );
        return rows.map(notificationOf);
      }),
    unreadCount: () =>
      d.run(function* () {
        return Number((yield* q('SELECT count(*) AS n FROM alert_notifications WHERE read_at IS NULL'))[0]?.n ?? 0);
      }),
    markRead: (id, at) =>
      d.run(function* () {
        yield* q('UPDATE alert_notifications SET read_at = $1 WHERE notification_id = $2 AND read_at IS NULL', at, id);
        return yield* getNotification(id);
      }),
    acknowledge: (id, at, by) =>
      d.run(function* () {
        yield* q(
          `UPDATE alert_notifications SET acknowledged_at = $1, acknowledged_by = $2, read_at = coalesce(read_at, $1)
           WHERE notification_id = $3 AND acknowledged_at IS NULL`,
          at,
          by,
          id,
        );
        return yield* getNotification(id);
      }),
    markAllRead: (at) =>
      d.run(function* () {
        yield* q('UPDATE alert_notifications SET read_at = $1 WHERE read_at IS NULL', at);
      }),
  };
}

/** Webhook destinations (a deleted one keeps its name for the delivery log). */
function destinationOps(
  d: Driver,
): Pick<AlertStore, 'listDestinations' | 'countDestinations' | 'createDestination' | 'deleteDestination'> {
  return {
    listDestinations: () =>
      d.run(function* () {
        return (yield* q('SELECT * FROM alert_destinations WHERE deleted = 0 ORDER BY created_at, destination_id')).map(
          destinationOf,
        );
      }),
    countDestinations: () =>
      d.run(function* () {
        return Number((yield* q('SELECT count(*) AS n FROM alert_destinations WHERE deleted = 0'))[0]?.n ?? 0);
      }),
    createDestination: (row) =>
      d.run(function* () {
        const id = newId('whk');
        yield* q(
          `INSERT INTO alert_destinations (destination_id, name, format, url, url_display, secret, created_at, made_by, made_by_kind)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          id,
          row.name,
          row.format,
          row.url,
          row.url_display,
          row.secret,
          row.created_at,
          row.made_by,
          row.made_by_kind,
        );
        return { ...row, destination_id: id };
      }),
    deleteDestination: (id) =>
      d.tx(function* () {
        // The URL and secret go; the row stays so the delivery log keeps its name.
        const gone = yield* q(
          `UPDATE alert_destinations SET deleted = 1, url = '', secret = '' WHERE destination_id = $1 AND deleted = 0 RETURNING destination_id`,
          id,
        );
        yield* q(`UPDATE alert_deliveries SET status = 'failed' WHERE destination_id = $1 AND status = 'pending'`, id);
        return gone.length > 0;
      }),
  };
}

/** Deliveries: claimed once across replicas, each attempt logged. */
function deliveryOps(d: Driver): Pick<AlertStore, 'claimDue' | 'recordAttempt' | 'attempts'> {
  return {
    claimDue: (now, claimUntil, max) =>
      d.run(function* () {
        const due = yield* q(
          `SELECT delivery_id FROM alert_deliveries WHERE status = 'pending' AND next_attempt_at <= $1 AND claimed_until < $1
           ORDER BY next_attempt_at LIMIT $2`,
          now,
          max,
        );
        const out: Array<DeliveryRow & { destination: DestinationRow | null }> = [];
        for (const { delivery_id } of due) {
          const claimed = (yield* q(
            `UPDATE alert_deliveries SET claimed_until = $1
             WHERE delivery_id = $2 AND status = 'pending' AND claimed_until < $3 RETURNING *`,
            claimUntil,
            delivery_id,
            now,
          ))[0];
          if (!claimed) continue;
          const dst = (yield* q(
            'SELECT * FROM alert_destinations WHERE destination_id = $1 AND deleted = 0',
            claimed.destination_id,
          ))[0];
          out.push({
            delivery_id: Number(claimed.delivery_id),
            destination_id: String(claimed.destination_id),
            notification_id: Number(claimed.notification_id),
            body: String(claimed.body),
            attempts: Number(claimed.attempts),
            destination: dst ? destinationOf(dst) : null,
          });
        }
        return out;
      }),
    recordAttempt: ({ delivery, at, outcome, responseCode, error, nextAttemptAt }) =>
      d.tx(function* () {
        const attempt = delivery.attempts + 1;
        yield* q(
          `INSERT INTO alert_delivery_attempts (delivery_id, destination_id, notification_id, attempt, at, outcome, response_code, error)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          delivery.delivery_id,
          delivery.destination_id,
          delivery.notification_id,
          attempt,
          at,
          outcome,
          responseCode,
          error,
        );
        const status = outcome === 'delivered' ? 'delivered' : outcome === 'failed' ? 'failed' : 'pending';
        yield* q(
          `UPDATE alert_deliveries SET attempts = $1, status = $2, next_attempt_at = $3, claimed_until = 0 WHERE delivery_id = $4`,
          attempt,
          status,
          nextAttemptAt ?? 0,
          delivery.delivery_id,
        );
      }),
    attempts: ({ first, after, destinationId }) =>
      d.run(function* () {
        const rows = yield* q(
          `SELECT a.*, d.name AS destination_name, n.title AS title FROM alert_delivery_attempts a
           JOIN alert_destinations d ON d.destination_id = a.destination_id
           JOIN alert_notifications n ON n.notification_id = a.notification_id
           WHERE a.attempt_id < $1 AND ($2 = '' OR a.destination_id = $2)
           ORDER BY a.attempt_id DESC LIMIT $3`,
          after ?? Number.MAX_SAFE_INTEGER,
          destinationId ?? '',
          first,
        );
        return rows.map((r) => ({
          attempt_id: Number(r.attempt_id),
          delivery_id: Number(r.delivery_id),
          destination_id: String(r.destination_id),
          destination_name: String(r.destination_name),
          notification_id: Number(r.notification_id),
          title: String(r.title),
          attempt: Number(r.attempt),
          at: Number(r.at),
          outcome: r.outcome as AttemptRow['outcome'],
          response_code: r.response_code === null ? null : Number(r.response_code),
          error: (r.error as string | null) ?? null,
        }));
      }),
  };
}

/** The evaluation lease: one replica evaluates at a time. */
function leaseOps(d: Driver): Pick<AlertStore, 'tryLease' | 'releaseLease'> {
  return {
    tryLease: (holder, nowMs, ms) =>
      d.run(function* () {
        const rows = yield* q(
          `INSERT INTO alert_evaluation_lease AS l (name, holder, expires_at) VALUES ('evaluation', $1, $2)
           ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
           WHERE l.expires_at < $3 OR l.holder = $1 RETURNING holder`,
          holder,
          nowMs + ms,
          nowMs,
        );
        return rows.length === 1;
      }),
    releaseLease: (holder) =>
      d.run(function* () {
        yield* q(`DELETE FROM alert_evaluation_lease WHERE name = 'evaluation' AND holder = $1`, holder);
      }),
  };
}

function createAlertStore(d: Driver): AlertStore {
  return {
    ...ruleOps(d),
    transition: (t) => d.tx(() => transitionOp(t)),
    ...notificationOps(d),
    ...destinationOps(d),
    ...deliveryOps(d),
    ...leaseOps(d),
  };
}

export function createSqliteAlertStore(db: Db): AlertStore {
  return createAlertStore(sqliteDriver(db));
}

export function createPgAlertStore(db: PgDatabase): AlertStore {
  return createAlertStore(pgDriver(db));
}

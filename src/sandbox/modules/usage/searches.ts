/**
 * Searches: seeded records of people asking questions about their code (the real record's shape is not
 * published; these carry the fields below), made by the same people who create the organization's sessions,
 * over the last 90 days.
 */
import type { Search } from '../../../api/operations/searches';
import type { Db } from '../../../node/db';
import { paginate } from '../../cursor';
import type { Rng } from '../../random';

export const SEARCHES_PER_ORG = 240;

const QUERIES = [
  'Where is the retry policy for outgoing webhooks configured?',
  'How does the checkout service validate coupon codes?',
  'Which services read from the orders Kafka topic?',
  'Where do we set the session cookie flags?',
  'How is the feature flag client initialised in the mobile app?',
  'What calls the legacy billing API?',
  'Where are database migrations run in CI?',
  'How do we paginate the audit log endpoint?',
  'Which module owns rate limiting for the public API?',
  'Where is the S3 bucket for exports defined?',
  'How are secrets injected into the worker containers?',
  'What is the entry point of the data pipeline?',
  'Where do we map GraphQL errors to HTTP status codes?',
  'Which tests cover the password reset flow?',
  'How is the search index rebuilt after a schema change?',
  'Where is the Terraform module for the VPC?',
];
const SOURCES = ['webapp', 'webapp', 'webapp', 'slack', 'api', 'cli'];

interface SearchRow extends Record<string, unknown> {
  search_id: string;
  org_id: string;
  user_id: string | null;
  query: string;
  source: string | null;
  result_count: number | null;
  repositories: string;
  created_at: number;
}

const toSearch = (r: SearchRow): Search => ({
  search_id: r.search_id,
  org_id: r.org_id,
  user_id: r.user_id,
  query: r.query,
  source: r.source,
  result_count: r.result_count,
  repositories: JSON.parse(r.repositories) as string[],
  created_at: r.created_at,
});

export function seedSearches(db: Db, rng: Rng, now: number, orgIds: readonly string[]): void {
  const insert = db.prepare(
    `INSERT INTO searches (search_id, org_id, user_id, query, source, result_count, repositories, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const orgId of orgIds) {
    const users = (
      db.prepare('SELECT DISTINCT user_id FROM sessions WHERE org_id = ? AND user_id IS NOT NULL').all(orgId) as {
        user_id: string;
      }[]
    ).map((u) => u.user_id);
    const repos = (
      db
        .prepare(`SELECT DISTINCT j.value AS repo FROM sessions s, json_each(s.repos) j WHERE s.org_id = ?`)
        .all(orgId) as { repo: string }[]
    ).map((r) => r.repo);
    for (let i = 0; i < SEARCHES_PER_ORG; i++) {
      insert.run(
        `search-${rng.hex(16)}`,
        orgId,
        users.length ? rng.pick(users) : null,
        rng.pick(QUERIES),
        rng.pick(SOURCES),
        rng.int(0, 40),
        JSON.stringify(repos.length ? rng.sample(repos, rng.int(1, Math.min(2, repos.length))) : []),
        now - rng.int(60, 90 * 86_400),
      );
    }
  }
}

export function listSearches(
  db: Db,
  scope: string,
  f: { orgIds?: string[] | undefined; after?: number | undefined; before?: number | undefined },
  first: number,
  cursor: string | null | undefined,
) {
  const where: Array<[string, ...Array<string | number>]> = [];
  if (f.orgIds && f.orgIds.length) where.push([`org_id IN (${f.orgIds.map(() => '?').join(', ')})`, ...f.orgIds]);
  if (f.after !== undefined) where.push(['created_at >= ?', f.after]);
  if (f.before !== undefined) where.push(['created_at < ?', f.before]);
  return paginate<SearchRow, Search>(db, {
    scope,
    select: 'SELECT * FROM searches',
    where,
    order: [
      { col: 'created_at', dir: 'desc' },
      { col: 'search_id', dir: 'desc' },
    ],
    first,
    after: cursor,
    map: toSearch,
  });
}

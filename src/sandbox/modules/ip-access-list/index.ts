/**
 * The enterprise IP access list: one table of entries in order, as given. The dispatcher asks
 * `ipAccessRefusal` before it authenticates a request: while the list is not empty, a request whose socket
 * address lies outside every entry answers 401. The seed includes loopback, so the console (which reaches the
 * sandbox over loopback) keeps working; `--reset-ip-access-list` clears a list that locks everyone out.
 */
import { IP_ACCESS_LIST_LIMITS } from '../../../api/operations/ip-access-list';
import { ipListAllows, normalizeIpRange, parseIpAddress, unmapIpv4, formatIpAddress } from '../../../api/ip-ranges';
import type { Db } from '../../../node/db';
import { unprocessable } from '../../../node/problem-writer';
import type { Principal, SandboxContext, SandboxModule } from '../../context';

/** Seeded list: loopback (both families) so the console keeps working, and a few office and VPN ranges. */
export const SEED_IP_RANGES = [
  '127.0.0.0/8',
  '::1/128',
  '10.20.0.0/16',
  '192.168.50.0/24',
  '203.0.113.0/24',
  '198.51.100.17',
  '2001:db8:4200::/48',
] as const;

const actor = (p: Principal) => ({ service_user_id: p.service_user_id, service_user_name: p.service_user_name });

export function readIpAccessList(db: Db): string[] {
  return (db.prepare('SELECT ip_range FROM ip_access_list ORDER BY position').all() as { ip_range: string }[]).map(
    (r) => r.ip_range,
  );
}

function writeList(db: Db, ranges: readonly string[]): void {
  db.prepare('DELETE FROM ip_access_list').run();
  const insert = db.prepare('INSERT INTO ip_access_list (position, ip_range) VALUES (?, ?)');
  ranges.forEach((r, i) => insert.run(i, r));
}

/** Entries kept once by their normalized form, the first occurrence as given. */
function dedupe(ranges: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of ranges) {
    const key = normalizeIpRange(r) ?? r;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  return out;
}

/** Clears the list in a store (`--reset-ip-access-list`); answers how many entries it held. */
export function resetIpAccessList(db: Db): number {
  const n = readIpAccessList(db).length;
  writeList(db, []);
  return n;
}

/**
 * Why a request from `remoteAddress` is refused, or null when it is allowed (empty list, or inside an entry).
 * `::ffff:127.0.0.1` counts as 127.0.0.1.
 */
export function ipAccessRefusal(db: Db, remoteAddress: string): string | null {
  const list = readIpAccessList(db);
  if (list.length === 0) return null;
  if (ipListAllows(list, remoteAddress)) return null;
  const parsed = parseIpAddress(remoteAddress);
  const shown = parsed ? formatIpAddress(unmapIpv4(parsed)) : remoteAddress;
  return `Requests from IP address ${shown} are not allowed by the enterprise's IP access list`;
}

function change(
  ctx: SandboxContext,
  principal: Principal,
  action: string,
  next: string[],
  data: Record<string, unknown> = {},
) {
  const previous = readIpAccessList(ctx.db);
  ctx.db.transaction(() => {
    writeList(ctx.db, next);
    ctx.audit({
      action,
      principal: actor(principal),
      data: { ip_ranges: next, previous_ip_ranges: previous, ...data },
    });
  })();
  return { ip_ranges: next };
}

export const ipAccessListModule: SandboxModule = {
  name: 'ip-access-list',
  migrations: [
    {
      id: 'ip-access-list-001-create',
      sql: `CREATE TABLE ip_access_list (position INTEGER PRIMARY KEY, ip_range TEXT NOT NULL);`,
    },
  ],
  seed({ db }) {
    writeList(db, [...SEED_IP_RANGES]);
  },
  handlers: {
    'ipAccessList.get': (_input, { db }) => ({ ip_ranges: readIpAccessList(db) }),
    'ipAccessList.replace': ({ body, principal }, ctx) =>
      change(ctx, principal, 'replace_ip_access_list', dedupe(body.ip_ranges)),
    'ipAccessList.append': ({ body, principal }, ctx) => {
      const current = readIpAccessList(ctx.db);
      const next = dedupe([...current, ...body.ip_ranges]);
      if (next.length > IP_ACCESS_LIST_LIMITS.entries) {
        throw unprocessable([
          {
            loc: ['body', 'ip_ranges'],
            msg: `the IP access list holds at most ${IP_ACCESS_LIST_LIMITS.entries} entries; it has ${current.length} and this request would make it ${next.length}`,
            type: 'too_big',
          },
        ]);
      }
      return change(ctx, principal, 'append_ip_access_list', next, {
        added: next.slice(current.length),
      });
    },
    'ipAccessList.clear': ({ principal }, ctx) => change(ctx, principal, 'clear_ip_access_list', []),
  },
};

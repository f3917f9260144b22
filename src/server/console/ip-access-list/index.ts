/**
 * Safe editing of the enterprise's IP access list (`/console/ip-access-list...`).
 *
 * The API's PUT swaps the whole list, and a list that leaves out the console's own address locks the console
 * (and often the admin) out until someone with another way in clears it. So a change goes through here:
 *   1. refuse a list that would no longer admit one of the console's own addresses (CONSOLE_EGRESS_IPS, and
 *      loopback with the embedded sandbox) — 422, unless the request types the enterprise's name exactly;
 *   2. read the current list and compare its version token with the one the edit started from — 409 with the
 *      difference if not;
 *   3. store the current list as the revision's previous list, before anything is written upstream, with who
 *      makes the change (the signed-in person, or how it is made: `../actor.ts`);
 *   4. apply upstream (PUT, or DELETE for an empty list) and record the result, or the failure, on the revision.
 * Steps 2–4 run one change at a time (the store's `serialize`), so two applies cannot pass each other's check;
 * the write and the recording first prove the lock is still held (a change that lost it stops with 503).
 * When the console cannot tell its own address (`egressUnknown`), step 1 instead requires the admin to type the
 * list's range that admits the console.
 */
import { createHash } from 'node:crypto';
import {
  diffIpRanges,
  lockedOutAddresses,
  type ConsoleIpAccessList,
  type IpRevisionAction,
} from '../../../api/console/ip-access-list';
import type { MadeBy } from '../../../api/console/session';
import { formatIpAddress, normalizeIpRange, parseIpAddress } from '../../../api/ip-ranges';
import { actorOf } from '../actor';
import { HttpProblem } from '../../../node/problem-writer';
import type { Redactor } from '../../redact';
import type { ConsoleHandlers } from '../mount';
import type { UpstreamClient } from '../upstream-client';
import { LockLost, notAppliedForStore, type Fence } from '../storage/locks';
import { StoreUnavailable } from '../storage/postgres';
import type { IpAccessListRevisionStore, IpRevisionOutcome } from './store';

/** Loopback of both families: how the console reaches the embedded sandbox. */
export const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'] as const;

/** The name of the embedded sandbox's enterprise (the API shows no enterprise name; see the README). */
export const SANDBOX_ENTERPRISE_NAME = 'Acme Corp';

/** A token of the list exactly as the API holds it (entries and order). */
export function ipAccessListVersion(list: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(list)).digest('hex').slice(0, 24);
}

/** The addresses the console reaches the API from, each once, in canonical text. */
export function protectedAddressesOf(config: { mode: 'sandbox' | 'upstream'; consoleEgressIps?: readonly string[] }) {
  const all = [...(config.consoleEgressIps ?? []), ...(config.mode === 'sandbox' ? LOOPBACK_ADDRESSES : [])];
  const out: string[] = [];
  for (const a of all) {
    const parsed = parseIpAddress(a);
    const text = parsed ? formatIpAddress(parsed) : a;
    if (!out.includes(text)) out.push(text);
  }
  return out;
}

/** CONSOLE_ENTERPRISE_NAME, or the sandbox's enterprise; null when the console does not know it. */
export function enterpriseNameOf(config: { mode: 'sandbox' | 'upstream'; enterpriseName?: string }): string | null {
  return config.enterpriseName ?? (config.mode === 'sandbox' ? SANDBOX_ENTERPRISE_NAME : null);
}

export interface IpAccessListDeps {
  upstream: UpstreamClient;
  redactor: Redactor;
  store: IpAccessListRevisionStore;
  /** The addresses a list must keep admitting unless overridden. */
  protectedAddresses: readonly string[];
  /** What an override types; null: no override through the console. */
  enterpriseName: string | null;
  /**
   * The console cannot tell the address it reaches the API from (a real upstream, or DATABASE_URL, and no
   * CONSOLE_EGRESS_IPS): a non-empty list must then name a range the admin confirmed, by typing it, admits
   * the console (the `console-confirmed-range` header).
   */
  egressUnknown?: boolean;
  /** How long recording a change's outcome is retried while the store cannot be reached (default 10 s). */
  recordRetryMs?: number;
}

/** The header carrying the range an admin typed to confirm it admits the console (see `egressUnknown`). */
export const CONFIRMED_RANGE_HEADER = 'console-confirmed-range';

/** Whether the console cannot tell its own egress address (see `IpAccessListDeps.egressUnknown`). */
export function egressUnknownOf(config: {
  mode: 'sandbox' | 'upstream';
  databaseUrl?: string;
  consoleEgressIps?: readonly string[];
}): boolean {
  return (
    (config.mode === 'upstream' || config.databaseUrl !== undefined) && (config.consoleEgressIps ?? []).length === 0
  );
}

interface ChangeRequest {
  action: IpRevisionAction;
  base_version: string;
  base?: string[];
  desired: string[];
  override_enterprise_name?: string;
  restoredFrom: number | null;
  /** Who makes the change (a restore: who restores), recorded on the revision. */
  by: MadeBy;
  signal?: AbortSignal;
  /** The range the admin typed to confirm it admits the console (`console-confirmed-range`), if any. */
  confirmedRange?: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Without a known egress address the lockout check has nothing to protect: a non-empty list is then applied
 * only when the request names (typed by the admin) one of the list's own ranges as the one that admits the
 * console. An empty list restricts nobody and needs no confirmation.
 */
function checkEgressConfirmed(deps: IpAccessListDeps, desired: string[], typed: string | undefined) {
  if (!deps.egressUnknown || desired.length === 0) return;
  const key = (e: string) => normalizeIpRange(e) ?? e.trim();
  if (typed && desired.some((e) => key(e) === key(typed))) return;
  const why = typed
    ? `The range typed (${typed.slice(0, 60)}) is not one of this list's entries: type one of them exactly as the list has it.`
    : 'Type the range of this list that admits the address the console reaches the API from, to confirm the console keeps its access.';
  throw new HttpProblem(
    422,
    `The console does not know the address it reaches the API from (CONSOLE_EGRESS_IPS is not set), so it cannot check that this list keeps admitting it, and a list without it would lock every console replica out. Nothing was applied. ${why} Better: set CONSOLE_EGRESS_IPS on every replica.`,
    {
      reason: 'egress_unknown',
      locked_out: [],
      protected_addresses: [],
      override_available: false,
      confirm_header: CONFIRMED_RANGE_HEADER,
      errors: [
        {
          loc: ['header', CONFIRMED_RANGE_HEADER],
          msg: 'Confirm the range that admits the console',
          type: 'egress_unknown',
        },
      ],
    },
  );
}

/** 422 unless the list admits every protected address, or the enterprise's name was typed exactly. */
function checkLockout(deps: IpAccessListDeps, desired: string[], typed: string | undefined): string[] {
  const { protectedAddresses, enterpriseName } = deps;
  const locked = lockedOutAddresses(desired, protectedAddresses);
  if (locked.length === 0) return [];
  if (enterpriseName !== null && typed === enterpriseName) return locked;
  const which = locked.join(', ');
  const why = `This list would lock the console out: it does not admit ${plural(locked.length, 'address', 'addresses')} the console reaches the API from (${which}), so every later request of the console would be refused with 401. Nothing was applied.`;
  const how =
    enterpriseName === null
      ? ' The console does not know the enterprise’s name (set CONSOLE_ENTERPRISE_NAME), so it cannot apply this list; add the console’s addresses to it, or change the list another way.'
      : typed === undefined || typed === ''
        ? ` Add ${locked.length === 1 ? 'this address' : 'these addresses'} to the list, or type the enterprise’s name to apply it anyway.`
        : ' The name typed does not match the enterprise’s name: type it exactly, with the same capitals and spaces.';
  const msg =
    enterpriseName === null
      ? 'The console cannot override a lockout without CONSOLE_ENTERPRISE_NAME'
      : typed === undefined || typed === ''
        ? `Type the enterprise’s name to lock out ${which} anyway`
        : 'Does not match the enterprise’s name (type it exactly)';
  throw new HttpProblem(422, why + how, {
    reason: 'lockout',
    locked_out: locked,
    protected_addresses: [...protectedAddresses],
    override_available: enterpriseName !== null,
    errors: [{ loc: ['body', 'override_enterprise_name'], msg, type: 'lockout' }],
  });
}

function conflict(baseVersion: string, current: string[], base?: string[]): HttpProblem {
  const changes = base ? diffIpRanges(base, current) : null;
  const what = changes
    ? `${changes.added.length} added, ${changes.removed.length} removed`
    : 'the list differs from the one the edit started from';
  return new HttpProblem(
    409,
    `The IP access list changed since the edit started (${what}). Nothing was applied: review the current list and apply again.`,
    { base_version: baseVersion, current_version: ipAccessListVersion(current), current, changes },
  );
}

const answerOf =
  (deps: IpAccessListDeps) =>
  (list: string[]): ConsoleIpAccessList => ({
    ip_ranges: list,
    version: ipAccessListVersion(list),
    count: list.length,
    protected_addresses: [...deps.protectedAddresses],
    enterprise_name: deps.enterpriseName,
  });

/**
 * Records how a change ended after proving the lock is still held; a store that cannot be reached is tried
 * again for a while. Answers whether it was recorded (if not, reconciliation closes the revision).
 */
async function record(deps: IpAccessListDeps, id: number, outcome: IpRevisionOutcome, fence: Fence): Promise<boolean> {
  const deadline = Date.now() + (deps.recordRetryMs ?? 10_000);
  for (;;) {
    try {
      await fence.check();
      await deps.store.finish(id, outcome);
      return true;
    } catch (err) {
      const retry = err instanceof StoreUnavailable || (err instanceof LockLost && err.reason === 'store_unavailable');
      if (!retry || Date.now() + 250 > deadline) {
        console.error(
          `[console] recording IP access list revision ${id} failed: ${err instanceof Error ? err.message : 'unknown error'}; reconciliation will close it`,
        );
        return false;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** Writes the list upstream while the lock is proved held; a failure is recorded on revision `id`. */
async function writeList(deps: IpAccessListDeps, id: number, desired: string[], fence: Fence): Promise<string[]> {
  const { upstream, store, redactor } = deps;
  try {
    // The write only while the lock is proved held: a change that lost it writes nothing.
    await fence.check();
    return desired.length === 0
      ? (await upstream.call('ipAccessList.clear', {})).ip_ranges
      : (await upstream.call('ipAccessList.replace', { body: { ip_ranges: desired } })).ip_ranges;
  } catch (err) {
    if (err instanceof LockLost) {
      // Nothing was written: this change's own revision says so (reconciliation does, if the store cannot).
      await store
        .finish(id, { status: 'failed', result: null, result_version: null, error: `Not applied: ${err.message}` })
        .catch(() => undefined);
      throw new HttpProblem(
        503,
        `The change was stopped before writing because ${err.message}. Nothing was applied. Reload the list and apply again if it is still needed.`,
        { title: 'Service Unavailable', reason: 'lock_lost', applied: 'none', revision_id: id },
        { 'retry-after': '5' },
      );
    }
    // Stored and served again by the history: never with the credential in it.
    const message = redactor.redact(err instanceof Error ? err.message : 'unknown error');
    await record(deps, id, { status: 'failed', result: null, result_version: null, error: message }, fence);
    throw err;
  }
}

/**
 * One change under the lock: refused (409) when the list moved since the edit started; otherwise recorded as
 * begun, written, and recorded with what the API answers.
 */
async function changeUnderLock(deps: IpAccessListDeps, req: ChangeRequest, lockedOut: string[], fence: Fence) {
  const { upstream, store } = deps;
  const answer = answerOf(deps);
  const current = (await upstream.call('ipAccessList.get', { signal: req.signal })).ip_ranges;
  const currentVersion = ipAccessListVersion(current);
  if (currentVersion !== req.base_version) throw conflict(req.base_version, current, req.base);
  if (JSON.stringify(current) === JSON.stringify(req.desired)) {
    return { ...answer(current), revision: null, unchanged: true };
  }
  const planned = diffIpRanges(current, req.desired);
  const id = await store.begin({
    action: req.action,
    restored_from: req.restoredFrom,
    previous: current,
    previous_version: currentVersion,
    added: planned.added,
    removed: planned.removed,
    locked_out: lockedOut,
    target: req.desired,
    ...req.by,
  });
  const result = await writeList(deps, id, req.desired, fence);
  const actual = diffIpRanges(current, result);
  const recorded = await record(
    deps,
    id,
    {
      status: 'applied',
      result,
      result_version: ipAccessListVersion(result),
      added: actual.added,
      removed: actual.removed,
    },
    fence,
  );
  if (!recorded) {
    // Applied under the lock: answered as applied, whatever the history could take.
    return {
      ...answer(result),
      revision: null,
      unchanged: false,
      recorded: false,
      warning: `The list was applied, but the console could not record it in the history yet (its store cannot be reached). Revision ${id} shows it as applying until the console reconciles it with the API.`,
    };
  }
  return { ...answer(result), revision: await store.summary(id).catch(() => null), unchanged: false };
}

/** Checks a change (its base, lockout, egress), then makes it: one change at a time across replicas. */
async function applyChange(deps: IpAccessListDeps, req: ChangeRequest) {
  if (req.base && ipAccessListVersion(req.base) !== req.base_version) {
    throw new HttpProblem(422, 'base does not match base_version: send the list the edit started from, unchanged', {
      errors: [{ loc: ['body', 'base'], msg: 'base does not match base_version', type: 'base_mismatch' }],
    });
  }
  const lockedOut = checkLockout(deps, req.desired, req.override_enterprise_name);
  checkEgressConfirmed(deps, req.desired, req.confirmedRange);
  // A store that fails under the lock (before any write) answers "nothing was applied".
  return deps.store
    .serialize((fence) => changeUnderLock(deps, req, lockedOut, fence))
    .catch((err: unknown) => {
      throw err instanceof StoreUnavailable ? notAppliedForStore(err) : err;
    });
}

export function ipAccessListHandlers(deps: IpAccessListDeps): ConsoleHandlers {
  const { upstream, store } = deps;
  const answer = answerOf(deps);
  const revisionOf = async (id: number) => {
    const rev = await store.get(id);
    if (!rev) throw new HttpProblem(404, `Revision ${id} was not found in the IP access list's history`);
    return rev;
  };

  return {
    'console.ipAccessList.get': async ({ signal }) =>
      answer((await upstream.call('ipAccessList.get', { signal })).ip_ranges),
    'console.ipAccessList.apply': ({ body, signal, c }) =>
      applyChange(deps, {
        action: body.ip_ranges.length === 0 ? 'clear' : 'replace',
        base_version: body.base_version,
        base: body.base,
        desired: body.ip_ranges,
        override_enterprise_name: body.override_enterprise_name,
        restoredFrom: null,
        by: actorOf(c),
        signal,
        confirmedRange: c.req.header(CONFIRMED_RANGE_HEADER),
      }),
    'console.ipAccessList.revisions.list': async ({ query }) => {
      const page = await store.list({ first: query.first, after: query.after });
      const last = page.items[page.items.length - 1];
      return {
        items: page.items,
        total: page.total,
        has_next_page: page.has_next_page,
        end_cursor: page.has_next_page && last ? String(last.revision_id) : null,
      };
    },
    'console.ipAccessList.revisions.get': ({ params }) => revisionOf(params.revision_id),
    'console.ipAccessList.revisions.restore': async ({ params, body, signal, c }) => {
      const rev = await revisionOf(params.revision_id);
      const list = body.set === 'result' ? rev.result : rev.previous;
      if (!list) {
        throw new HttpProblem(
          422,
          `Revision ${rev.revision_id} has no resulting list to restore (it ${rev.status === 'failed' ? 'failed' : 'did not complete'})`,
          {
            errors: [
              {
                loc: ['body', 'set'],
                msg: 'This revision has no result; restore its previous list instead',
                type: 'no_result',
              },
            ],
          },
        );
      }
      return applyChange(deps, {
        action: 'restore',
        base_version: body.base_version,
        base: body.base,
        desired: list,
        override_enterprise_name: body.override_enterprise_name,
        restoredFrom: rev.revision_id,
        by: actorOf(c),
        signal,
        confirmedRange: c.req.header(CONFIRMED_RANGE_HEADER),
      });
    },
  };
}

/**
 * One-time sign-in links and the start's housekeeping: expired sessions and sessions of another configuration
 * dropped, links of earlier starts forgotten; a new link is handed out at once and stored in the background (a
 * link is never refused for arriving before it is stored: consuming one waits for the links being stored).
 */
import { createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { newSecret, SIGN_IN_PATH, type SessionStore } from '../console/sessions-store';
import { MAX_SESSIONS } from './sessions';

/** The access token compared in constant time, and the fingerprint of the configuration sessions open under. */
export function tokenChecks(token: string | undefined) {
  // Compared as HMACs under a per-process key: equal lengths, constant time, whatever is sent.
  const macKey = randomBytes(32);
  const mac = (s: string) => createHmac('sha256', macKey).update(s).digest();
  const tokenMac = token ? mac(token) : undefined;
  const tokenMatches = (given: string) => {
    const g = mac(given);
    // Always compare, so a configuration without a token takes the same time.
    const ok = timingSafeEqual(g, tokenMac ?? mac(newSecret()));
    return ok && tokenMac !== undefined;
  };
  // Sessions remember the configuration they were opened under; a slow hash, so the stored value does not
  // make guessing the token offline cheap.
  const fingerprint = scryptSync(token ?? 'link-only', 'agent-platform-console session fingerprint v1', 32).toString(
    'hex',
  );
  return { tokenMatches, fingerprint };
}

export function createLinks(opts: {
  mode: 'off' | 'link' | 'token';
  store: SessionStore;
  now: () => number;
  fingerprint: string;
  idleMs: number;
  maxAgeMs: number;
  sharedStore: boolean;
}) {
  const { store, now } = opts;
  const ready: Promise<void> =
    opts.mode === 'off'
      ? Promise.resolve()
      : (async () => {
          await store.revokeOtherFingerprints(opts.fingerprint);
          await store.purge(now(), opts.idleMs, MAX_SESSIONS);
          // Links printed by earlier starts no longer work. With replicas sharing the store, another replica's
          // fresh link must keep working: there, unused links expire after the maximum session age instead.
          await store.clearLinks(opts.sharedStore ? now() - opts.maxAgeMs : undefined);
        })();
  // Not awaited by anyone yet: a failure here is reported, and the requests that follow answer for the store.
  ready.catch((err: unknown) =>
    console.error(`[console] sign-in housekeeping failed: ${err instanceof Error ? err.message : 'unknown error'}`),
  );
  /** Links being stored: consuming a link waits for them, so a link is never refused for arriving early. */
  let linksStored: Promise<unknown> = ready.catch(() => undefined);
  const addLink = (name?: string | null): { path: string; stored: Promise<void> } => {
    const secret = newSecret();
    const stored = linksStored.then(() => store.addLink(secret, now(), name ?? null));
    linksStored = stored.catch(() => undefined);
    return { path: `${SIGN_IN_PATH}?once=${secret}`, stored };
  };
  return {
    ready,
    stored: () => linksStored,
    issueLink(name?: string | null) {
      const link = addLink(name);
      link.stored.catch((err: unknown) =>
        console.error(
          `[console] storing a sign-in link failed: ${err instanceof Error ? err.message : 'unknown error'}`,
        ),
      );
      return link.path;
    },
    async newLink(name?: string | null) {
      const link = addLink(name);
      await link.stored;
      return link.path;
    },
  };
}

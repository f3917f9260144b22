/** App-wide notices: a 401 banner that says how to configure the credential, 429 waits, lost connection. */
import { useSyncExternalStore } from 'react';
import { DoctorNotice } from './doctor-notice';
import { rateLimitSignal, unauthorizedSignal } from '@/lib/api-events';
import { useNow } from '@/lib/use-now';
import { useUpstreamRecovery } from '@/lib/use-upstream-recovery';

function useSignal<T>(signal: { get: () => T; subscribe: (l: (v: T) => void) => () => void }): T {
  return useSyncExternalStore(signal.subscribe, signal.get, signal.get);
}

export function UnauthorizedBanner() {
  const detail = useSignal(unauthorizedSignal);
  if (detail === null) return null;
  if (/IP access list/.test(detail)) {
    // Not the credential: the enterprise's IP access list leaves out the address the console calls from.
    return (
      <div role="alert" className="border-b border-danger/40 bg-danger/10 px-4 py-3 text-sm">
        <p className="font-semibold text-danger">The IP access list locks the console out (401).</p>
        <p className="mt-1">
          {detail} — With the embedded sandbox, stop the console and run{' '}
          <code className="font-mono">npm start -- --reset-ip-access-list</code> with the same DATA_DIR. Against the
          real API, change the list from an address it admits.
        </p>
      </div>
    );
  }
  return (
    <div role="alert" className="border-b border-danger/40 bg-danger/10 px-4 py-3 text-sm">
      <p className="font-semibold text-danger">The Agent Platform API refused the console's credential (401).</p>
      <p className="mt-1">
        {detail} — Configure the console server with <code className="font-mono">AGENT_PLATFORM_API_KEY</code> (a
        service-user credential starting with <code className="font-mono">cog_</code>) and{' '}
        <code className="font-mono">AGENT_PLATFORM_BASE_URL</code>, in its environment or in{' '}
        <code className="font-mono">.env</code>, then restart it. Unset both to use the embedded sandbox.
      </p>
    </div>
  );
}

function RateLimitNotice() {
  const waits = useSignal(rateLimitSignal);
  const now = useNow(500);
  if (waits.length === 0) return null;
  const until = Math.max(...waits.map((w) => w.until));
  return (
    <div role="status" className="border-b border-warn/40 bg-warn/10 px-4 py-2 text-sm">
      Rate limited by the API: retrying in {Math.max(0, Math.ceil((until - now) / 1000))} s…
    </div>
  );
}

function OfflineNotice() {
  const offline = useUpstreamRecovery();
  if (!offline) return null;
  return (
    <div role="status" className="border-b border-warn/40 bg-warn/10 px-4 py-2 text-sm">
      The Agent Platform API cannot be reached right now. The console keeps retrying and recovers on its own.
    </div>
  );
}

export function GlobalNotices() {
  return (
    <>
      <UnauthorizedBanner />
      <RateLimitNotice />
      <OfflineNotice />
      <DoctorNotice />
    </>
  );
}

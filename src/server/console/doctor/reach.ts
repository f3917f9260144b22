/**
 * The doctor's first section, reach: the base URL resolves and answers over HTTPS (plain HTTP only on loopback),
 * with the round-trip time of a request without the credential, on a fresh connection; TLS problems named
 * plainly and a certificate near its end warned about. Nothing else is sent when this fails.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { DoctorReport } from '../../../api/console/doctor';
import { DoctorNetworkError, doctorGet, isLoopbackName } from './http';
import { plural, verdict, type DoctorRun } from './run';

/** Certificates closer than this to their end get a warning. */
const CERT_WARN_DAYS = 14;

export type ReachSection = DoctorReport['reach'];

/** The base URL, or null when it is not an http(s) URL. */
function parseBase(baseUrl: string): URL | null {
  try {
    const base = new URL(baseUrl);
    return base.protocol === 'https:' || base.protocol === 'http:' ? base : null;
  } catch {
    return null;
  }
}

/** The addresses `hostname` resolves to, or why it does not. */
async function resolve(hostname: string): Promise<{ addresses: string[]; problem: string | null }> {
  if (isIP(hostname)) return { addresses: [hostname], problem: null };
  try {
    return { addresses: (await lookup(hostname, { all: true })).map((a) => a.address).slice(0, 8), problem: null };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'ENOTFOUND';
    return {
      addresses: [],
      problem:
        code === 'ENOTFOUND'
          ? `the host name ${hostname} does not resolve (DNS found no address)`
          : `the host name ${hostname} could not be resolved (${code})`,
    };
  }
}

/** Without the credential, on a fresh connection: the time to connect (and shake hands) and answer. */
async function probe(run: DoctorRun, reach: ReachSection): Promise<void> {
  const probeUrl = new URL(`${run.opts.baseUrl.replace(/\/+$/, '')}/v3/self`);
  try {
    await run.pacer.next(run.opts.signal);
    run.rate.requests++;
    const res = await doctorGet(probeUrl, { timeoutMs: run.timeoutMs, agent: false, signal: run.opts.signal });
    reach.rtt_ms = res.ms;
    reach.status = res.status;
    reach.tls = res.tls;
    if (res.status === 429) {
      run.rate.responses429++;
      if (res.headers['retry-after']) run.rate.retryAfterSeen = true;
    }
  } catch (err) {
    reach.problem = err instanceof DoctorNetworkError ? err.plain : String(err);
  }
}

function reachVerdict(reach: ReachSection, base: URL | null, baseUrl: string): ReachSection['verdict'] {
  if (reach.problem || !base) return verdict('fail', `Cannot reach ${reach.host ?? baseUrl}: ${reach.problem}`);
  const tls = reach.tls;
  const daysLeft = tls?.valid_to ? Math.floor((tls.valid_to * 1000 - Date.now()) / 86_400_000) : null;
  const tlsText = tls
    ? `, ${tls.protocol ?? 'TLS'}${tls.subject ? `, certificate for ${tls.subject}` : ''}${daysLeft !== null ? ` valid ${plural(daysLeft, 'more day')}` : ''}`
    : reach.loopback
      ? ', plain HTTP on loopback'
      : '';
  const line = `Reached ${base.origin} in ${Math.round(reach.rtt_ms ?? 0)} ms (HTTP ${reach.status}${tlsText})`;
  return daysLeft !== null && daysLeft < CERT_WARN_DAYS
    ? verdict('warn', `${line}; the TLS certificate ends in ${plural(daysLeft, 'day')}`)
    : verdict('ok', line);
}

/** Section 1: can the upstream be reached at all, and how. `base` is null when the URL is unusable. */
export async function checkReach(run: DoctorRun): Promise<{ reach: ReachSection; base: URL | null }> {
  const reach: ReachSection = {
    verdict: verdict('fail', ''),
    scheme: null,
    host: null,
    loopback: false,
    addresses: [],
    rtt_ms: null,
    status: null,
    tls: null,
    problem: null,
  };
  const base = parseBase(run.opts.baseUrl);
  if (!base) reach.problem = 'the base URL is not an http(s) URL';
  else {
    const hostname = base.hostname.replace(/^\[|\]$/g, '');
    reach.scheme = base.protocol.replace(':', '');
    reach.host = base.host;
    reach.loopback = isLoopbackName(hostname);
    if (base.protocol === 'http:' && !reach.loopback) {
      reach.problem = `plain HTTP to ${base.host}: the credential would cross the network in clear, so the doctor sends nothing; use https:// (plain HTTP is accepted on loopback only)`;
    } else {
      const resolved = await resolve(hostname);
      reach.addresses = resolved.addresses;
      reach.problem = resolved.problem;
      if (!reach.problem) await probe(run, reach);
    }
  }
  reach.verdict = reachVerdict(reach, base, run.opts.baseUrl);
  return { reach, base };
}

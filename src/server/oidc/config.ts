/**
 * The single sign-on and console-role settings, read and checked at start with the rest of the configuration
 * (one clear line per problem): the OpenID Connect provider (CONSOLE_OIDC_*), the console's public address
 * (CONSOLE_PUBLIC_URL, which the redirect URI is made of), the policy file and the activity's retention.
 */
import { resolve } from 'node:path';
import { loadPolicyFile, PolicyError } from '../policy/policy';

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The claim the groups are read from (CONSOLE_OIDC_GROUPS_CLAIM, default `groups`). */
  groupsClaim: string;
  /** CONSOLE_OIDC_SCOPES (default `openid profile email`). */
  scopes: string;
  /** CONSOLE_OIDC_PROVIDER_NAME: shown on the button ("Sign in with …"); default the issuer's host. */
  providerName: string;
  /** `<CONSOLE_PUBLIC_URL>/console/oidc/callback`. */
  redirectUri: string;
}

export interface AccessSettings {
  oidc?: OidcConfig;
  /** CONSOLE_PUBLIC_URL, without a trailing slash. */
  publicUrl?: string;
  /** CONSOLE_POLICY_FILE, resolved. */
  policyFile?: string;
  /** CONSOLE_ACTIVITY_RETENTION_DAYS (default 365). */
  activityRetentionDays?: number;
  /** CONSOLE_ACTIVITY_MAX_ROWS (default 100000). */
  activityMaxRows?: number;
}

export const OIDC_CALLBACK_PATH = '/console/oidc/callback';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/i;

function httpUrl(raw: string): URL | null {
  try {
    const u = new URL(raw);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.hash ? u : null;
  } catch {
    return null;
  }
}

function intIn(get: (k: string) => string | undefined, problems: string[], key: string, def: number, max: number) {
  const raw = get(key);
  if (raw === undefined) return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    problems.push(`${key} must be a whole number from 1 to ${max} (got "${raw}")`);
    return def;
  }
  return n;
}

/** Reads the settings; every problem is pushed onto `problems` as one line. */
export function readAccessSettings(get: (key: string) => string | undefined, problems: string[]): AccessSettings {
  const out: AccessSettings = {
    activityRetentionDays: intIn(get, problems, 'CONSOLE_ACTIVITY_RETENTION_DAYS', 365, 36_500),
    activityMaxRows: intIn(get, problems, 'CONSOLE_ACTIVITY_MAX_ROWS', 100_000, 10_000_000),
  };
  const publicRaw = get('CONSOLE_PUBLIC_URL');
  if (publicRaw !== undefined) {
    const u = httpUrl(publicRaw);
    if (!u || u.search || (u.pathname !== '/' && u.pathname !== '')) {
      problems.push(
        `CONSOLE_PUBLIC_URL must be the console's address as browsers reach it, like https://console.example.com (no path or query; got "${publicRaw}")`,
      );
    } else out.publicUrl = u.origin;
  }
  const issuerRaw = get('CONSOLE_OIDC_ISSUER');
  const clientId = get('CONSOLE_OIDC_CLIENT_ID');
  const clientSecret = get('CONSOLE_OIDC_CLIENT_SECRET');
  if (issuerRaw !== undefined) {
    const issuer = httpUrl(issuerRaw);
    if (!issuer || issuer.search) {
      problems.push(`CONSOLE_OIDC_ISSUER must be the provider's https:// issuer URL (got "${issuerRaw}")`);
    } else if (issuer.protocol === 'http:' && !LOOPBACK.test(issuer.hostname)) {
      problems.push(
        `CONSOLE_OIDC_ISSUER must use https:// for ${issuer.host} (http:// is accepted on loopback only: 127.0.0.0/8, ::1, localhost)`,
      );
    }
    if (!clientId) problems.push('CONSOLE_OIDC_CLIENT_ID is required with CONSOLE_OIDC_ISSUER');
    if (!clientSecret) problems.push('CONSOLE_OIDC_CLIENT_SECRET is required with CONSOLE_OIDC_ISSUER');
    if (publicRaw === undefined) {
      problems.push(
        `CONSOLE_PUBLIC_URL is required with CONSOLE_OIDC_ISSUER: the redirect URI registered at the provider is <CONSOLE_PUBLIC_URL>${OIDC_CALLBACK_PATH}`,
      );
    }
    const scopes = (get('CONSOLE_OIDC_SCOPES') ?? 'openid profile email').trim().replace(/\s+/g, ' ');
    if (!scopes.split(' ').includes('openid')) {
      problems.push(`CONSOLE_OIDC_SCOPES must include openid (got "${scopes}")`);
    }
    const groupsClaim = (get('CONSOLE_OIDC_GROUPS_CLAIM') ?? 'groups').trim();
    if (!/^[\w:./-]{1,200}$/.test(groupsClaim)) {
      problems.push(`CONSOLE_OIDC_GROUPS_CLAIM must be a claim name (got "${groupsClaim}")`);
    }
    if (issuer && clientId && clientSecret && out.publicUrl) {
      out.oidc = {
        issuer: issuerRaw.replace(/\/+$/, ''),
        clientId,
        clientSecret,
        groupsClaim,
        scopes,
        providerName: (get('CONSOLE_OIDC_PROVIDER_NAME') ?? issuer.hostname).slice(0, 60),
        redirectUri: `${out.publicUrl}${OIDC_CALLBACK_PATH}`,
      };
    }
  } else if (clientId || clientSecret) {
    problems.push('CONSOLE_OIDC_CLIENT_ID and CONSOLE_OIDC_CLIENT_SECRET need CONSOLE_OIDC_ISSUER');
  }
  const policyRaw = get('CONSOLE_POLICY_FILE');
  if (policyRaw !== undefined) {
    const path = resolve(policyRaw);
    try {
      loadPolicyFile(path);
      out.policyFile = path;
    } catch (err) {
      if (err instanceof PolicyError) problems.push(...err.problems);
      else throw err;
    }
  }
  return out;
}

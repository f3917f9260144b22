/** Remembers the last organization chosen, so enterprise screens can link back to it. */
const KEY = 'console-last-org';

export function rememberOrg(orgId: string): void {
  try {
    localStorage.setItem(KEY, orgId);
  } catch {
    // storage may be unavailable; the URL still holds the selection
  }
}

export function lastOrg(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** Forgets the last organization when it is this one (it was deleted). */
export function forgetOrg(orgId: string): void {
  try {
    if (localStorage.getItem(KEY) === orgId) localStorage.removeItem(KEY);
  } catch {
    // storage may be unavailable
  }
}

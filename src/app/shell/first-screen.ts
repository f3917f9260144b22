/**
 * What the first screen of a URL reads, known from the URL alone: the shell's own answers on every page (who the
 * credential is, the queue, the console's config, the doctor's summary, the organizations of the switcher, who is
 * signed in and with which roles, the unread notifications) and
 * the answers of the deep links people open directly (`/`, an organization, its sessions, a session). The console
 * server names them in the HTML as preloads (src/server/static.ts), so they are requested as the page arrives,
 * in parallel with the scripts, and the app's own requests for the same URLs are answered from them.
 *
 * The URLs must be exactly those the app's queries ask for (same path, same query string), or the browser asks
 * again: e2e/first-screen.spec.ts fails when the app requests one of them twice. A list opened with filters in
 * its URL, and the audit log (whose first page ends at the second it is read), are left to the app.
 */
import { ENDPOINTS } from '../../api/endpoints.gen';
import type { AnyOperationId } from '../../api/operation-ids';

/** Page sizes the app's first pages ask for (src/lib/organizations.ts, src/features/sessions). */
const ORGANIZATIONS_FIRST = 100;
const SESSIONS_FIRST = 100;
const MESSAGES_FIRST = 50;

/** An id the URL may carry into the HTML: plain characters only, so it needs no escaping and reads as given. */
const ID = /^[A-Za-z0-9_-]{1,128}$/;

function url(id: AnyOperationId, params: Record<string, string> = {}, query = ''): string {
  const path = ENDPOINTS[id][1].replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');
  return `${path.startsWith('/console/') ? '' : '/api'}${path}${query}`;
}

/**
 * Who is signed in (src/lib/console-session.ts): answered by the console's access control itself, not by an
 * operation of its table, so it has no entry in ENDPOINTS.
 */
const CONSOLE_SESSION = '/console/session';

/**
 * The shell's answers the console server knows itself (its config, who is signed in): a page whose first screen
 * it renders carries them too (src/server/static.ts), so the app asks for neither.
 */
export const EMBEDDED_SHELL_DATA: readonly string[] = [CONSOLE_SESSION, url('console.config')];

/** Every page: the shell's header and navigation read these whatever the screen. */
export function shellData(): string[] {
  return [
    url('organizations.list', {}, `?first=${ORGANIZATIONS_FIRST}`),
    url('self.get'),
    CONSOLE_SESSION,
    url('queue.get'),
    url('console.config'),
    url('console.alerts.unreadCount.get'),
    url('console.doctor.summary.get'),
  ];
}

/** What the first screen of a URL reads: its own answers (what the screen is ready with), then the shell's. */
export interface FirstScreenData {
  screen: string[];
  shell: string[];
  /**
   * Whether the console server renders this first screen (src/server/first-screen-render.ts): the deep links
   * whose own answers are all in `screen` (the organizations, a session list, a session), so the rendered
   * screen is the screen itself, not a skeleton of it.
   */
  rendered: boolean;
}

/**
 * The same-origin URLs the first screen of `pathname` (with `search`, the query string without `?`) reads.
 * Unknown paths get the shell's only.
 */
export function firstScreenData(pathname: string, search = ''): FirstScreenData {
  const out: string[] = [];
  const shell = shellData();
  const parts = pathname.split('/').filter(Boolean);
  let rendered = parts.length === 0 && search === '';
  if (parts.length === 0) out.push(shell.shift()!);
  const result = () => ({ screen: out, shell, rendered });
  if (parts.some((p) => !ID.test(p))) return result();
  const [area, id, sub, subId, ...rest] = parts;
  if (area === 'orgs' && id) {
    const org_id = id;
    out.push(url('organizations.get', { org_id }));
    if (sub === 'sessions' && subId === undefined && search === '') {
      out.push(url('sessions.list', { org_id }, `?first=${SESSIONS_FIRST}`));
      rendered = true;
    }
    if (sub === 'sessions' && subId && subId !== 'new' && rest.length === 0) {
      rendered = search === '';
      const params = { org_id, agent_id: subId };
      out.push(
        url('sessions.get', params),
        url('sessions.insights.get', params),
        url('sessions.messages.list', params, `?first=${MESSAGES_FIRST}`),
        url('organizations.tags.get', { org_id }),
      );
    }
  }
  if (area === 'sessions' && id && sub === undefined) {
    out.push(url('sessions.enterprise.get', { agent_id: id }));
  }
  return result();
}

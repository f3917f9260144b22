/**
 * A real OpenID Connect provider for the tests (oidc-provider, a certified implementation) on loopback, with
 * people in groups: ana (console-admins), hugo (help-desk), dana (an operator by email), olga (no group).
 * Its development login form accepts any login (the account id) and any password; consent is given at once
 * (a grant with the asked scopes), so a browser or `signInAt` gets from the console to the callback in one go.
 */
import type { AddressInfo } from 'node:net';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Provider, { type Configuration } from 'oidc-provider';

export interface TestPerson {
  email: string;
  name: string;
  groups: string[];
}

export const PEOPLE: Record<string, TestPerson> = {
  ana: { email: 'ana@example.com', name: 'Ana Admin', groups: ['console-admins'] },
  hugo: { email: 'hugo@example.com', name: 'Hugo Helpdesk', groups: ['help-desk'] },
  dana: { email: 'dana@example.com', name: 'Dana Reyes', groups: ['operators'] },
  olga: { email: 'olga@example.com', name: 'Olga Outsider', groups: [] },
};

export interface TestProvider {
  issuer: string;
  close(): Promise<void>;
}

export interface TestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export async function startTestProvider(opts: {
  port?: number;
  clients: TestClient[];
  /** ID token lifetime in seconds (default 3600). */
  idTokenTtl?: number;
}): Promise<TestProvider> {
  const port = opts.port ?? 0;
  // The issuer must be known before listening: with port 0, listen first on a plain server, then mount.
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server: Server = createServer((req, res) => handler?.(req, res));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const configuration: Configuration = {
    clients: opts.clients.map((c) => ({ ...c, grant_types: ['authorization_code'], response_types: ['code'] })),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => {
        const p = PEOPLE[id] ?? { email: `${id}@example.com`, name: id, groups: [] };
        return { sub: id, email: p.email, email_verified: true, name: p.name, groups: p.groups };
      },
    }),
    // Consent given at once: the grant holds what was asked.
    loadExistingGrant: async (ctx) => {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email');
      grant.addOIDCClaims(['email', 'email_verified', 'name', 'groups']);
      await grant.save();
      return grant;
    },
    pkce: { required: () => true },
    ttl: { IdToken: opts.idTokenTtl ?? 3600 },
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
  };
  const provider = new Provider(issuer, configuration);
  const callback = provider.callback();
  handler = (req, res) => void callback(req, res);
  return {
    issuer,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Cookies kept between the provider's redirects (the console's own cookie is not asked for here). */
function jar() {
  const cookies = new Map<string, string>();
  return {
    take(res: Response) {
      for (const c of res.headers.getSetCookie()) {
        const [pair = ''] = c.split(';');
        const eq = pair.indexOf('=');
        if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
      }
    },
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
  };
}

/**
 * Signs `login` in at the provider from the authorization URL the console redirected to, as a browser would
 * through the development login form; answers the console callback URL the provider sends back to.
 */
export async function signInAt(authorizationUrl: string, login: string): Promise<string> {
  const cookies = jar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookies.header() } });
    cookies.take(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url).href;
      if (next.includes('/console/oidc/callback')) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`the provider answered ${res.status} without a form at ${url}`);
    const isLogin = html.includes('name="login"');
    const body = new URLSearchParams(
      isLogin ? { prompt: 'login', login, password: 'any' } : { prompt: 'consent' },
    ).toString();
    const posted = await fetch(new URL(action, url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookies.header(), 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    cookies.take(posted);
    const loc = posted.headers.get('location');
    if (!loc) throw new Error(`the provider's form answered ${posted.status} without a redirect`);
    url = new URL(loc, url).href;
    if (url.includes('/console/oidc/callback')) return url;
  }
  throw new Error('too many redirects at the provider');
}

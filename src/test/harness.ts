/**
 * API-test harness: the sandbox (and, when asked, the console server in front of it) on port 0, driven
 * over real HTTP.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Config } from '../server/config';
import { createConsoleServer, type ConsoleServerOptions } from '../server/app';
import { SANDBOX_CREDENTIALS, startSandbox, type RunningSandbox, type SandboxOptions } from '../sandbox';

export const ADMIN = SANDBOX_CREDENTIALS.admin;
export const VIEWER = SANDBOX_CREDENTIALS.viewer;

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface HttpClient {
  url: string;
  call<T = any>(
    method: string,
    path: string,
    opts?: { token?: string | null; body?: unknown; headers?: Record<string, string>; rawBody?: string },
  ): Promise<CallResult<T>>;
  get<T = any>(path: string, token?: string | null): Promise<CallResult<T>>;
}

export function httpClient(url: string, defaultToken: string | null = ADMIN): HttpClient {
  const call = async <T = any>(
    method: string,
    path: string,
    opts: Parameters<HttpClient['call']>[2] = {},
  ): Promise<CallResult<T>> => {
    const token = opts.token === undefined ? defaultToken : opts.token;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // leave as text
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };
  return { url, call, get: (path, token) => call('GET', path, { token }) };
}

export async function startTestSandbox(
  opts: Partial<SandboxOptions> = {},
): Promise<RunningSandbox & { api: HttpClient }> {
  const sandbox = await startSandbox({ dbPath: ':memory:', validateResponses: true, tickMs: 50, ...opts });
  return Object.assign(sandbox, { api: httpClient(sandbox.url) });
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    mode: 'sandbox',
    apiKey: undefined,
    baseUrl: undefined,
    host: '127.0.0.1',
    port: 0,
    dataDir: ':memory:',
    sandboxPort: 0,
    sandboxPortExplicit: true,
    sandboxRateLimit: undefined,
    sandboxShape: 'spec',
    sandboxTickMs: undefined,
    upstreamTimeoutMs: 5_000,
    maxUpstreamConnections: 64,
    allowedHosts: [],
    accessToken: undefined,
    consoleAuth: 'off',
    tlsCertFile: undefined,
    tlsKeyFile: undefined,
    sessionIdleMinutes: 120,
    sessionMaxHours: 12,
    historyMaxRevisions: 200,
    historyMaxAgeDays: 180,
    maxUpstreamPerClient: 16,
    databaseUrl: undefined,
    consoleEgressIps: [],
    enterpriseName: undefined,
    ...overrides,
  };
}

/**
 * The console server in front of an upstream (a test sandbox by default). `api` calls the console as the
 * browser does: same-origin headers, no credential.
 */
export async function startTestConsole(
  opts: {
    upstream?: { baseUrl: string; apiKey: string };
    config?: Partial<Config>;
    sandbox?: Partial<SandboxOptions>;
  } = {},
) {
  const sandbox = opts.upstream ? undefined : await startTestSandbox(opts.sandbox);
  const upstream = opts.upstream ?? { baseUrl: sandbox!.url, apiKey: ADMIN };
  const config = testConfig(opts.config);
  const server = createConsoleServer({ config, upstream });
  const { port } = await server.listen();
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    sandbox,
    api: httpClient(url, null),
    async close() {
      await server.close();
      await sandbox?.stop();
    },
  };
}

/**
 * The console server with access control on (CONSOLE_AUTH=on; the default outside tests), in front of
 * `upstream` (a test sandbox when not given). `signIn()` opens a new one-time link and answers the session
 * cookie as `name=value`; `now` is the clock of sessions and backoff.
 */
export async function startAuthConsole(
  opts: {
    upstream?: { baseUrl: string; apiKey: string };
    config?: Partial<Config>;
    now?: () => number;
    serveApp?: ConsoleServerOptions['serveApp'];
  } = {},
) {
  const sandbox = opts.upstream ? undefined : await startTestSandbox();
  const upstream = opts.upstream ?? { baseUrl: sandbox!.url, apiKey: ADMIN };
  const server = createConsoleServer({
    config: testConfig({ consoleAuth: 'on', ...opts.config }),
    upstream,
    now: opts.now,
    serveApp:
      opts.serveApp ??
      ((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<div id="root"></div>')),
  });
  const { port, url } = await server.listen();
  return {
    url,
    port,
    server,
    sandbox,
    /** A new one-time sign-in link: its path and query. */
    link: () => server.signInLink(),
    async signIn(): Promise<string> {
      const res = await rawRequest(port, 'GET', server.signInLink());
      const cookie = res.headers['set-cookie']?.[0];
      if (res.status !== 303 || !cookie) throw new Error(`sign-in link answered ${res.status}`);
      return cookie.split(';')[0]!;
    },
    async close() {
      await server.close();
      await sandbox?.stop();
    },
  };
}

/** A request with an exact, unnormalized target and any headers (fetch would normalize or refuse them). */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const length =
      body !== undefined && !headers['transfer-encoding'] ? { 'content-length': String(Buffer.byteLength(body)) } : {};
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path: target, headers: { host: `localhost:${port}`, ...length, ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: bytes.toString(), bytes });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

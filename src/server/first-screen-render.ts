/**
 * The first screen rendered on the server, for the deep links whose own answers the URL names
 * (src/app/shell/first-screen.ts): the app's own components (src/entry-server.tsx, built into `dist-ssr/` beside
 * the app) on the answers this very browser would get, rendered in a worker thread
 * (src/server/first-screen-worker.ts) so this thread keeps serving the page's files meanwhile. The static handler
 * sends the page's head and painted shell at once and the rendered screen when it is in, or keeps the painted
 * shell when it is not in within `WAIT_MS`: a slow upstream never holds the page (src/server/static.ts).
 */
import { existsSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { Worker } from 'node:worker_threads';
import { EMBEDDED_SHELL_DATA } from '../app/shell/first-screen';
import type { RenderReply, RenderRequest, RenderTarget, WorkerSettings } from './first-screen-worker';

/** How long the page's body waits for the first screen's answers and markup before it gets the painted shell. */
export const WAIT_MS = 300;
/** Renders waiting at once; a page beyond them gets the painted shell (the server's time goes to answers first). */
const MAX_IN_FLIGHT = 8;
/** The largest answer a render reads (a first page of 100 sessions is ~80 KB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** After the worker failed, how long before another is started. */
const RESTART_AFTER_MS = 5_000;

/** The app's markup of a first screen, and the answers it was made from, by URL. */
export interface RenderedScreen {
  html: string;
  answers: Record<string, unknown>;
}

export interface FirstScreenRenderer {
  /** The app's markup for `url` (path and query) as `req`'s browser would see it, or null (then the shell). */
  render(req: IncomingMessage, url: string): Promise<RenderedScreen | null>;
  close(): Promise<void>;
}

/**
 * The headers a loopback carries: the client's own proof of access to the console (its session cookie, or the
 * `Authorization` a program sent), its language and user agent, as a same-origin request; nothing else of its.
 */
export function loopbackHeaders(from: IncomingHttpHeaders): Record<string, string> {
  const headers: Record<string, string> = {
    host: from.host ?? 'localhost',
    accept: 'application/json',
    'accept-encoding': 'identity',
    'sec-fetch-site': 'same-origin',
  };
  if (from.cookie) headers.cookie = from.cookie;
  if (from.authorization) headers.authorization = from.authorization;
  if (typeof from['accept-language'] === 'string') headers['accept-language'] = from['accept-language'];
  if (typeof from['user-agent'] === 'string') headers['user-agent'] = from['user-agent'];
  return headers;
}

function targetOf(req: IncomingMessage): RenderTarget | null {
  const socket = req.socket as TLSSocket;
  if (!socket.localAddress || !socket.localPort) return null;
  return {
    host: socket.localAddress,
    port: socket.localPort,
    tls: socket.encrypted === true,
    headers: loopbackHeaders(req.headers),
  };
}

/**
 * The renderer of a server bundle's worker, started now (a page asked before it is ready gets the painted
 * shell); none when the build wrote no server bundle.
 */
export function createFirstScreenRenderer(ssrDir: string): FirstScreenRenderer | undefined {
  const script = `${ssrDir}/first-screen-worker.js`;
  if (!existsSync(script) || !existsSync(`${ssrDir}/entry-server.js`)) return undefined;
  const pending = new Map<number, (screen: RenderedScreen | null) => void>();
  let worker: Worker | undefined;
  let ready = false;
  let failedAt = 0;
  let nextId = 1;

  const settle = (id: number, screen: RenderedScreen | null) => {
    const done = pending.get(id);
    pending.delete(id);
    done?.(screen);
  };
  const start = () => {
    ready = false;
    const settings: WorkerSettings = { waitMs: WAIT_MS, maxAnswerBytes: MAX_ANSWER_BYTES };
    const w = new Worker(script, { workerData: settings });
    w.unref();
    w.on('message', (msg: RenderReply | 'ready') => {
      if (msg === 'ready') ready = true;
      else settle(msg.id, msg.html === null ? null : { html: msg.html, answers: msg.answers });
    });
    const fail = (reason: string) => {
      if (worker !== w) return;
      console.error(`[console] the first-screen renderer stopped (${reason}); pages get the painted shell meanwhile`);
      worker = undefined;
      ready = false;
      failedAt = Date.now();
      for (const id of [...pending.keys()]) settle(id, null);
    };
    w.on('error', (err) => fail(err.message));
    w.on('exit', (code) => fail(`exit ${code}`));
    worker = w;
  };
  start();

  return {
    render(req, url) {
      if (!worker && Date.now() - failedAt > RESTART_AFTER_MS) start();
      const target = targetOf(req);
      if (!worker || !ready || !target || pending.size >= MAX_IN_FLIGHT) return Promise.resolve(null);
      const id = nextId++;
      const w = worker;
      return new Promise((resolve) => {
        // The worker answers within its own wait; this bound is for a worker that is stuck.
        const timer = setTimeout(() => settle(id, null), WAIT_MS + 100);
        pending.set(id, (screen) => {
          clearTimeout(timer);
          resolve(screen);
        });
        w.postMessage({ id, url, target, also: [...EMBEDDED_SHELL_DATA] } satisfies RenderRequest);
      });
    },
    async close() {
      const w = worker;
      worker = undefined;
      for (const id of [...pending.keys()]) settle(id, null);
      await w?.terminate();
    },
  };
}

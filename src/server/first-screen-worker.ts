/**
 * The first-screen renderer's thread (src/server/first-screen-render.ts starts it): React renders a screen in
 * one synchronous stretch (10-50 ms), which on the server's own thread would hold back every file and answer the
 * browser is waiting for at that moment (the page's stylesheet and scripts included). Built by Vite beside the
 * app's server bundle (`dist-ssr/first-screen-worker.js`), which it loads from its own directory.
 *
 * Every same-origin `fetch` the app makes while rendering for a page goes back into the console server over
 * loopback, on the address the browser reached, with that browser's cookie, language and user agent and nothing
 * else of its: the console's access control, policy and redaction apply as to the browser's own requests, so the
 * markup holds only what the console would answer that browser.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

/** Where the browser reached the console, and the browser's headers the loopback carries. */
export interface RenderTarget {
  host: string;
  port: number;
  tls: boolean;
  headers: Record<string, string>;
}

export interface RenderRequest {
  id: number;
  url: string;
  target: RenderTarget;
  /** Answers to embed besides those the render reads (the shell's that the server knows itself). */
  also: string[];
}

export interface RenderReply {
  id: number;
  html: string | null;
  /** The answers the markup was made from, by URL (the app takes them instead of asking again). */
  answers: Record<string, unknown>;
}

export interface WorkerSettings {
  waitMs: number;
  maxAnswerBytes: number;
}

/** The render thread's nice value (0 is the server's; 19 the lowest). */
const WORKER_NICE = Number(process.env.FIRST_SCREEN_NICE ?? 10);

type Render = (url: string, waitMs: number, signal: AbortSignal) => Promise<string | null>;
type Fetcher = (url: string, init?: RequestInit) => Promise<Response>;

/** One GET back into the console server. */
function loopback(target: RenderTarget, path: string, signal: AbortSignal, maxBytes: number): Promise<Response> {
  const make = target.tls ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const out = make(
      {
        host: target.host,
        port: target.port,
        path,
        method: 'GET',
        headers: target.headers,
        signal,
        // The console server itself, on the socket the browser's request came in on.
        ...(target.tls ? { rejectUnauthorized: false } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) out.destroy(new Error('answer too large for the first screen'));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          const status = res.statusCode ?? 502;
          resolve(new Response(status === 204 ? null : Buffer.concat(chunks), { status, headers }));
        });
        res.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end();
  });
}

/** The loopback fetcher of the render running now (the app's code calls the global `fetch`). */
const current = new AsyncLocalStorage<Fetcher>();

/** Same-origin URLs fetched inside a render go to its fetcher; nothing else in this thread fetches. */
function routeRenderFetches(): void {
  const platform = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    const own = current.getStore();
    if (own && typeof input === 'string' && input.startsWith('/') && !input.startsWith('//')) return own(input, init);
    return platform(input, init);
  }) as typeof fetch;
}

/**
 * This thread below the server's own in the scheduler's eyes (Linux: a thread's nice value is its own): a render
 * is worth less than the answers and files the server's thread serves meanwhile, and on a small machine shared
 * with a browser, less than that browser painting the page the render is for. Elsewhere it stays as it is.
 */
function yieldToOthers(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, WORKER_NICE);
  } catch {
    // Not Linux, or not allowed: the same priority as the server.
  }
}

async function main(): Promise<void> {
  const port = parentPort;
  if (!port) return;
  yieldToOthers();
  const settings = workerData as WorkerSettings;
  const { renderFirstScreen } = (await import(new URL('./entry-server.js', import.meta.url).href)) as {
    renderFirstScreen: Render;
  };
  routeRenderFetches();
  port.on('message', (msg: RenderRequest) => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), settings.waitMs);
    const answers: Record<string, unknown> = {};
    const fetcher: Fetcher = async (path, init) => {
      if ((init?.method ?? 'GET') !== 'GET') throw new Error('the first screen only reads');
      const res = await loopback(msg.target, path, abort.signal, settings.maxAnswerBytes);
      if (res.status !== 200 || !/^application\/json\b/.test(res.headers.get('content-type') ?? '')) return res;
      const text = await res.text();
      answers[path] = JSON.parse(text) as unknown;
      return new Response(text, { status: 200, headers: res.headers });
    };
    const also = Promise.all(msg.also.map((path) => fetcher(path).catch(() => undefined)));
    current
      .run(fetcher, () => renderFirstScreen(msg.url, settings.waitMs, abort.signal))
      .catch(() => null)
      .then(async (html) => {
        await also;
        return html;
      })
      .then((html) => {
        clearTimeout(timer);
        port.postMessage({ id: msg.id, html, answers: html ? answers : {} } satisfies RenderReply);
      });
  });
  port.postMessage('ready');
}

void main();

/**
 * Access control for a console served beyond loopback: a sign-in page that takes CONSOLE_ACCESS_TOKEN and
 * sets an HttpOnly, SameSite=Strict session cookie. The cookie value is an HMAC of the token, so sessions
 * survive restarts and end when the token changes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './static';

export const SESSION_COOKIE = 'console_session';
export const SIGN_IN_PATH = '/console/sign-in';
const MAX_FORM_BYTES = 4096;

function sessionValue(token: string): string {
  return createHmac('sha256', token).update('agent-platform-console session v1').digest('base64url');
}

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(message?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Agent Platform Console</title>
<style>body{font-family:system-ui,sans-serif;background:#f6f7f9;color:#1d2330;display:grid;place-items:center;min-height:100vh;margin:0}
@media (prefers-color-scheme:dark){body{background:#161a22;color:#e6e8ee}form{background:#1f2430!important;border-color:#333a48!important}input{background:#161a22;color:inherit;border-color:#333a48!important}}
form{background:#fff;border:1px solid #dde1e8;border-radius:10px;padding:24px;width:min(90vw,360px)}
label{display:block;font-size:14px;font-weight:600;margin:12px 0 4px}input{width:100%;box-sizing:border-box;height:36px;border:1px solid #dde1e8;border-radius:6px;padding:0 8px}
button{margin-top:16px;height:36px;width:100%;border:0;border-radius:6px;background:#3b5bdb;color:#fff;font-weight:600}
p[role=alert]{color:#c92a2a;font-size:14px}</style></head><body>
<form method="post" action="${SIGN_IN_PATH}"><h1 style="font-size:18px;margin:0">Agent Platform Console</h1>
<p style="font-size:14px">This console is served beyond this machine. Enter its access token (CONSOLE_ACCESS_TOKEN) to continue.</p>
${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}
<label for="token">Access token</label><input id="token" name="token" type="password" autocomplete="current-password" required autofocus>
<button type="submit">Sign in</button></form></body></html>`;
}

export interface AccessControl {
  /** True when the request may go on; otherwise the response has been written. */
  check(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
}

export function createAccessControl(token: string | undefined): AccessControl {
  if (!token) return { check: () => true };
  const expected = sessionValue(token);

  const sendPage = (res: ServerResponse, status: number, message?: string) => {
    const html = page(message);
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
      'cache-control': 'no-store',
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    });
    res.end(html);
  };

  return {
    check(req, res, pathname) {
      if (pathname === '/console/health') return true;
      if (pathname === SIGN_IN_PATH) {
        if (req.method === 'GET') {
          sendPage(res, 200);
          return false;
        }
        if (req.method !== 'POST') {
          res.writeHead(405, { allow: 'GET, POST' }).end();
          return false;
        }
        let body = '';
        let tooLarge = false;
        req.on('data', (chunk: Buffer) => {
          body += chunk.toString();
          if (body.length > MAX_FORM_BYTES) {
            tooLarge = true;
            req.destroy();
          }
        });
        req.on('end', () => {
          if (tooLarge) return;
          const given = new URLSearchParams(body).get('token') ?? '';
          if (!safeEqual(sessionValue(given), expected)) {
            sendPage(res, 401, 'That access token is not right.');
            return;
          }
          res.writeHead(303, {
            location: '/',
            'set-cookie': `${SESSION_COOKIE}=${expected}; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200`,
            'cache-control': 'no-store',
          });
          res.end();
        });
        return false;
      }
      const cookie = readCookie(req, SESSION_COOKIE);
      if (cookie && safeEqual(cookie, expected)) return true;
      if (pathname.startsWith('/api/') || pathname.startsWith('/console/')) {
        const body = JSON.stringify({
          type: 'about:blank',
          status: 401,
          title: 'Unauthorized',
          detail: `Sign in to the console first (${SIGN_IN_PATH})`,
          instance: pathname,
        });
        res.writeHead(401, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return false;
      }
      res.writeHead(303, { location: SIGN_IN_PATH, 'cache-control': 'no-store' }).end();
      return false;
    },
  };
}

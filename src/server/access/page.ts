/**
 * The pages of signing in: the sign-in page (single sign-on button, access-token form, one-time link advice),
 * and the page that says why a sign-in was refused or that the console session has ended. Plain HTML with a
 * hashed stylesheet and a strict Content-Security-Policy: no script runs on them.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { SIGN_IN_NAME_MAX } from '../../api/console/session';
import { SIGN_IN_PATH } from '../console/sessions-store';
import { SECURITY_HEADERS } from '../static';

export type AccessMode = 'off' | 'link' | 'token';

export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font-family:system-ui,sans-serif;background:#f6f7f9;color:#1d2330;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;border:1px solid #dde1e8;border-radius:10px;padding:24px;width:min(90vw,380px)}
h1{font-size:18px;margin:0}p{font-size:14px;line-height:1.45}code{font-size:13px}
label{display:block;font-size:14px;font-weight:600;margin:12px 0 4px}
input{width:100%;box-sizing:border-box;height:36px;border:1px solid #dde1e8;border-radius:6px;padding:0 8px}
button{margin-top:16px;height:36px;width:100%;border:0;border-radius:6px;background:#3b5bdb;color:#fff;font-weight:600;cursor:pointer}
a.button{display:flex;align-items:center;justify-content:center;margin-top:16px;height:36px;border-radius:6px;background:#3b5bdb;color:#fff;font-weight:600;text-decoration:none}
a.button:focus-visible,button:focus-visible{outline:3px solid #91a7ff;outline-offset:2px}
h2{font-size:14px;margin:20px 0 0;padding-top:16px;border-top:1px solid #dde1e8}
p[role=alert]{color:#c92a2a}
.hint{font-size:13px;color:#5c6473;margin:0 0 4px}
.field-error{font-size:13px;color:#c92a2a;margin:4px 0 0}
input[aria-invalid=true]{border-color:#c92a2a}
@media (prefers-color-scheme:dark){body{background:#161a22;color:#e6e8ee}main{background:#1f2430;border-color:#333a48}h2{border-color:#333a48}a{color:#91a7ff}a.button{color:#fff}input{background:#161a22;color:inherit;border-color:#333a48}p[role=alert],.field-error{color:#ff8787}.hint{color:#aab1bf}input[aria-invalid=true]{border-color:#ff8787}}`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
const PAGE_CSP = `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

/** What the token form shows again after a refused sign-in: the name typed, and its error if it was refused. */
export interface FormState {
  name?: string;
  nameError?: string;
}

/** Single sign-on as the sign-in page offers it. */
export interface SsoOffer {
  providerName: string;
  startPath: string;
}

function signInForm(state: FormState, focus = true): string {
  const invalid = state.nameError !== undefined;
  // The name first: it is what a person fills in; after a refused token, the token field takes the focus.
  // Beside single sign-on nothing takes the focus until the form was sent once (the provider's button comes first).
  const sent = invalid || state.name !== undefined;
  const focusName = (focus || sent) && (invalid || !state.name);
  const focusToken = (focus || sent) && !focusName;
  return `<form method="post" action="${SIGN_IN_PATH}">
<label for="name">Your name</label><p class="hint" id="name-hint">1–${SIGN_IN_NAME_MAX} characters. Shown in the history beside each change you make.</p>
<input id="name" name="name" type="text" autocomplete="name" required maxlength="${SIGN_IN_NAME_MAX}" value="${escapeHtml(state.name ?? '')}" aria-describedby="${invalid ? 'name-error name-hint' : 'name-hint'}"${invalid ? ' aria-invalid="true"' : ''}${focusName ? ' autofocus' : ''}>
${invalid ? `<p class="field-error" id="name-error">${escapeHtml(state.nameError!)}</p>` : ''}
<label for="token">Access token</label><input id="token" name="token" type="password" autocomplete="current-password" required${focusToken ? ' autofocus' : ''}>
<button type="submit">Sign in</button></form>`;
}

/** The sign-in page; `message` is shown as an alert; `extra` is trusted HTML (a link to the provider's logout). */
export function signInPage(
  mode: AccessMode,
  sso: SsoOffer | undefined,
  message?: string,
  state: FormState = {},
  extra = '',
): string {
  const linkAdvice =
    'Open the one-time sign-in link that <code>npm start</code> printed in its terminal. For a new one, run <code>npm start -- --sign-in-link --as "Your Name"</code> or restart the console.';
  let body: string;
  if (sso) {
    const button = `<a class="button" href="${escapeHtml(sso.startPath)}">Sign in with ${escapeHtml(sso.providerName)}</a>`;
    const rest =
      mode === 'token'
        ? `<h2>Or with the console's access token</h2><p class="hint">For scripts and a single admin on their own machine: the console's policy decides what it may do.</p>${signInForm(state, false)}`
        : '';
    body = `<p>Sign in with your organization's account: your name, email and groups come from ${escapeHtml(sso.providerName)}, and the console's policy decides what you may do.</p>${button}${rest}`;
  } else {
    const intro =
      mode === 'token'
        ? 'Enter your name and the console’s access token (<code>CONSOLE_ACCESS_TOKEN</code>), or open the one-time sign-in link that <code>npm start</code> printed.'
        : linkAdvice;
    body = `<p>${intro}</p>${mode === 'token' ? signInForm(state) : ''}`;
  }
  const alert = message ? `<p role="alert">${escapeHtml(message)}</p>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Agent Platform Console</title><style>${STYLE}</style></head><body><main>
<h1>Agent Platform Console</h1>${alert}${extra}${body}</main></body></html>`;
}

/** A page saying why a single sign-on was refused (nothing signed in), with a link to try again. */
export function refusedPage(title: string, message: string, retryPath: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Agent Platform Console</title><style>${STYLE}</style></head><body><main>
<h1>${escapeHtml(title)}</h1><p role="alert">${escapeHtml(message)}</p><p>Nobody was signed in.</p>
<a class="button" href="${escapeHtml(retryPath)}">Try again</a>
<p><a href="${SIGN_IN_PATH}">Back to the sign-in page</a></p></main></body></html>`;
}

/** After a single sign-on: the session is open; the page moves on to the app at once (and links there). */
export function landingPage(name: string | null): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="0; url=/"><title>Signed in · Agent Platform Console</title><style>${STYLE}</style></head><body><main>
<h1>Signed in${name ? ` as ${escapeHtml(name)}` : ''}</h1><p role="status">Opening the console…</p>
<a class="button" href="/">Open the console</a></main></body></html>`;
}

/** Writes a page with the headers every sign-in page carries. */
export function writePage(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}) {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'cache-control': 'no-store',
    'content-security-policy': PAGE_CSP,
    // Not `no-referrer`: with it, browsers send `Origin: null` on the form's POST, which the cross-site
    // guard refuses. `same-origin` sends the real origin to this origin only.
    'referrer-policy': 'same-origin',
    ...headers,
  });
  res.end(html);
}

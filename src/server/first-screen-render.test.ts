/**
 * The first-screen renderer's loopback carries the client's own proof of access and nothing else of its request;
 * without a server bundle there is no renderer (every page keeps the painted shell).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFirstScreenRenderer, loopbackHeaders } from './first-screen-render';

describe('the first-screen renderer', () => {
  it('asks the console as the browser: its cookie or Authorization, language and agent, same-origin, nothing else', () => {
    const headers = loopbackHeaders({
      host: 'console.example:8443',
      cookie: 'console_session=abc',
      authorization: 'Bearer console-token',
      'accept-language': 'de-DE',
      'user-agent': 'Chromium',
      origin: 'https://evil.example',
      referer: 'https://evil.example/page',
      'x-forwarded-for': '203.0.113.9',
      'sec-fetch-site': 'cross-site',
      'content-type': 'text/plain',
    });
    expect(headers).toEqual({
      host: 'console.example:8443',
      accept: 'application/json',
      'accept-encoding': 'identity',
      'sec-fetch-site': 'same-origin',
      cookie: 'console_session=abc',
      authorization: 'Bearer console-token',
      'accept-language': 'de-DE',
      'user-agent': 'Chromium',
    });
    expect(loopbackHeaders({})).toEqual({
      host: 'localhost',
      accept: 'application/json',
      'accept-encoding': 'identity',
      'sec-fetch-site': 'same-origin',
    });
  });

  it('is absent when the build wrote no server bundle', () => {
    expect(createFirstScreenRenderer(mkdtempSync(join(tmpdir(), 'no-ssr-')))).toBeUndefined();
  });
});

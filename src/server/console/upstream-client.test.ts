/**
 * The console's own upstream client on answers it cannot read: a 502 whose problem type says so, so the browser
 * neither takes the API for unreachable nor retries (the API answered; a retry gets the same answer).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNREADABLE_ANSWER_TYPE } from '../../api/problem';
import { createRedactor } from '../redact';
import { createUpstreamClient, UpstreamProblem } from './upstream-client';

const KEY = 'cog_upstream_client_test_key_0123456789';
let server: Server;
let baseUrl: string;
let answer = '';

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('an answer the console cannot read', () => {
  it.each([
    ['not JSON', '<html>maintenance</html>', /with a body that is not JSON/],
    ['not the contract', '{"items": "none"}', /does not match the contract/],
  ])('%s: 502 of the unreadable-answer type', async (_, body, detail) => {
    answer = body;
    const client = createUpstreamClient({ baseUrl, apiKey: KEY, timeoutMs: 2000, redactor: createRedactor([KEY]) });
    const err = await client.call('organizations.list').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UpstreamProblem);
    const p = err as UpstreamProblem;
    expect(p.status).toBe(502);
    expect(p.body.type).toBe(UNREADABLE_ANSWER_TYPE);
    expect(p.body.detail).toMatch(detail);
  });
});

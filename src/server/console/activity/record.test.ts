/**
 * The created resource's id is recorded whether the console sent its answer plain or compressed (a browser's
 * answers are compressed, so reading only plain ones would lose every id a person's create made), and never a
 * field whose name suggests a secret.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ActivityInput, ActivityStore } from './store';
import { recordWhenAnswered } from './record';

async function recorded(encoding: string, body: Buffer): Promise<ActivityInput> {
  let entry: ActivityInput | undefined;
  let done: () => void = () => undefined;
  const seen = new Promise<void>((resolve) => (done = resolve));
  const store = {
    record: async (e: ActivityInput) => {
      entry = e;
      done();
    },
  } as unknown as ActivityStore;
  const server = createServer((req, res) => {
    recordWhenAnswered(
      store,
      req,
      res,
      {
        principal: { subject: 's', name: 'Dana', email: 'dana@example.com', method: 'oidc', groups: [], roles: [] },
        op: undefined,
        grant: 'admin',
        path: '/api/v3/enterprise/service-users',
      },
      () => 1,
      () => undefined,
    );
    // As the proxy answers: its headers given to writeHead.
    res.writeHead(200, { 'content-type': 'application/json', ...(encoding ? { 'content-encoding': encoding } : {}) });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  // A raw request: the bytes are taken as sent, never decoded by the client.
  await new Promise<void>((resolve, reject) =>
    request({ host: '127.0.0.1', port, method: 'POST' }, (res) => res.resume().on('end', resolve))
      .on('error', reject)
      .end(),
  );
  await seen;
  server.close();
  return entry!;
}

const answer = Buffer.from(
  JSON.stringify({ service_user_id: 'service-user-7', name: 'ci', credential: 'cog_secret', api_key_id: 'k' }),
);

describe('the ids of a created resource', () => {
  it('are read from a plain, a gzip and a Brotli answer alike, without secret-named fields', async () => {
    for (const [encoding, body] of [
      ['', answer],
      ['gzip', gzipSync(answer)],
      ['br', brotliCompressSync(answer)],
    ] as const) {
      const e = await recorded(encoding, body);
      expect(e.ids, encoding || 'plain').toEqual({ service_user_id: 'service-user-7' });
      expect(JSON.stringify(e)).not.toContain('cog_secret');
    }
  });

  it('are not read from a damaged compressed answer (the path only)', async () => {
    const e = await recorded('gzip', Buffer.from('not gzip at all'));
    expect(e.ids).toEqual({});
  });
});

/**
 * Issue 29, alerts: a consumption threshold crossed in the sandbox delivers exactly one signed webhook (retried
 * after a 500) and one in-console notification, once across two replicas on one PostgreSQL database; a URL
 * reaching loopback or a private range is refused unless allowed; the URL never appears in an answer or a log.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleServer } from '../../app';
import { ADMIN, httpClient, startTestSandbox, testConfig, type HttpClient } from '../../../test/harness';
import { newTestDatabase } from '../../../test/pg-database';
import { startReplica, type Replica } from '../../../test/replicas';
import { isPrivateAddress, vetTarget, TargetRefused } from './targets';
import { sendWebhook, verifySignature } from './webhooks';

const TOKEN = 'T0PSECRET-path-token-4242';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/** A webhook receiver on loopback: answers `statuses` in turn (then 200), keeps what it received. */
async function startReceiver(statuses: number[] = []) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const status = statuses.shift() ?? 200;
      received.push({ headers: req.headers, body, status });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook/${TOKEN}?key=${TOKEN}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;

beforeAll(async () => {
  sandbox = await startTestSandbox();
}, 30_000);
afterAll(async () => {
  await sandbox?.stop();
});

const setEnterpriseLimit = async (n: number) => {
  const r = await sandbox.api.call('PUT', '/v3/enterprise/consumption/acu-limits/agent', {
    body: { cycle_acu_limit: n },
  });
  expect(r.status).toBeLessThan(300);
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function checkSigned(r: Received, secret: string) {
  const ts = Number(r.headers['x-console-timestamp']);
  expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(60);
  expect(verifySignature(secret, ts, r.body, String(r.headers['x-console-signature']))).toBe(true);
  expect(verifySignature('another-secret', ts, r.body, String(r.headers['x-console-signature']))).toBe(false);
}

describe('alerts on one console', () => {
  let console_: HttpClient;
  let close: () => Promise<void>;
  const logs: string[] = [];

  beforeAll(async () => {
    const server = createConsoleServer({
      config: testConfig({ alertsAllowPrivateTargets: ['127.0.0.1'], alertsRetryBaseMs: 20, alertsIntervalS: 0 }),
      upstream: { baseUrl: sandbox.url, apiKey: ADMIN },
      log: (l) => logs.push(l),
    });
    const { port } = await server.listen();
    console_ = httpClient(`http://127.0.0.1:${port}`, null);
    close = () => server.close();
  });
  afterAll(async () => close?.());

  it('a consumption threshold crossed delivers one signed webhook, retried after a 500, and one notification; cleared once', async () => {
    const receiver = await startReceiver([500]);
    const answers: string[] = [];
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await console_.call(method, path, { body });
      answers.push(r.text);
      return r;
    };
    await setEnterpriseLimit(1_000_000_000);
    const hook = await call('POST', '/console/alerts/webhooks', { name: 'Ops', url: receiver.url, format: 'json' });
    expect(hook.status).toBe(201);
    const secret = hook.body.signing_secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(hook.body.url_display).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/…$/);
    const rule = await call('POST', '/console/alerts/rules', {
      name: 'Half the limit',
      kind: 'consumption',
      threshold_percent: 50,
      consumption_mode: 'reached',
      destination_ids: [hook.body.destination_id],
    });
    expect(rule.status).toBe(201);

    // Under the threshold: nothing.
    expect((await call('POST', '/console/alerts/evaluations')).body).toMatchObject({ ran: true, fired: 0, errors: [] });
    expect(receiver.received).toHaveLength(0);

    // Crossed in the sandbox: one notification, one delivery that meets a 500 and is retried.
    await setEnterpriseLimit(1);
    const first = await call('POST', '/console/alerts/evaluations');
    expect(first.body).toMatchObject({ fired: 1, delivered: 0, errors: [] });
    // (The retry is sent by whichever comes first: the replica's delivery timer or the next evaluation.)
    expect(receiver.received.map((r) => r.status)).toEqual([500]);
    await sleep(40);
    const again = await call('POST', '/console/alerts/evaluations');
    expect(again.body).toMatchObject({ fired: 0 });
    await call('POST', '/console/alerts/evaluations');
    expect(receiver.received.map((r) => r.status)).toEqual([500, 200]);
    for (const r of receiver.received) checkSigned(r, secret);
    // The retry is the same delivery with the same body.
    expect(receiver.received[1]!.headers['x-console-delivery']).toBe(
      receiver.received[0]!.headers['x-console-delivery'],
    );
    const payload = JSON.parse(receiver.received[1]!.body);
    expect(payload).toMatchObject({ type: 'alert.firing', rule: { name: 'Half the limit' }, link: '/usage' });

    const list = await call('GET', '/console/alerts/notifications');
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ state: 'firing', link: '/usage', read_at: null });
    expect((await call('GET', '/console/alerts/notifications/unread-count')).body).toEqual({ unread: 1 });
    const log = await call('GET', '/console/alerts/deliveries');
    expect(log.body.items.map((a: { outcome: string; response_code: number }) => [a.outcome, a.response_code])).toEqual(
      [
        ['delivered', 200],
        ['retrying', 500],
      ],
    );
    const ack = await call('POST', `/console/alerts/notifications/${list.body.items[0].notification_id}/acknowledge`);
    expect(ack.body.acknowledged_at).not.toBeNull();
    expect((await call('GET', '/console/alerts/notifications/unread-count')).body).toEqual({ unread: 0 });

    // The condition stops: said once.
    await setEnterpriseLimit(1_000_000_000);
    expect((await call('POST', '/console/alerts/evaluations')).body).toMatchObject({ cleared: 1 });
    expect((await call('POST', '/console/alerts/evaluations')).body).toMatchObject({ cleared: 0, fired: 0 });
    const after = await call('GET', '/console/alerts/notifications');
    expect(after.body.items.map((n: { state: string }) => n.state)).toEqual(['cleared', 'firing']);
    expect(JSON.parse(receiver.received.at(-1)!.body).type).toBe('alert.cleared');
    expect(receiver.received).toHaveLength(3);

    await call('GET', '/console/alerts/webhooks');
    await call('GET', '/console/alerts/rules');
    for (const text of [...answers, ...logs]) expect(text).not.toContain(TOKEN);
    await call('DELETE', `/console/alerts/rules/${rule.body.rule_id}`);
    await receiver.close();
  });

  it('a Slack-compatible destination gets a text payload; a muted rule tells nobody', async () => {
    const receiver = await startReceiver();
    const hook = await console_.call('POST', '/console/alerts/webhooks', {
      body: { name: 'Slack', url: receiver.url, format: 'slack' },
    });
    await setEnterpriseLimit(1);
    const muted = await console_.call('POST', '/console/alerts/rules', {
      body: {
        name: 'Muted',
        kind: 'consumption',
        threshold_percent: 10,
        consumption_mode: 'forecast',
        destination_ids: [hook.body.destination_id],
      },
    });
    await console_.call('PATCH', `/console/alerts/rules/${muted.body.rule_id}`, { body: { muted: true } });
    const loud = await console_.call('POST', '/console/alerts/rules', {
      body: {
        name: 'Loud',
        kind: 'consumption',
        threshold_percent: 10,
        consumption_mode: 'reached',
        destination_ids: [hook.body.destination_id],
      },
    });
    const r = await console_.call('POST', '/console/alerts/evaluations');
    expect(r.body).toMatchObject({ fired: 1 });
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0]!.body).text).toContain('Alert');
    await console_.call('DELETE', `/console/alerts/rules/${muted.body.rule_id}`);
    await console_.call('DELETE', `/console/alerts/rules/${loud.body.rule_id}`);
    await setEnterpriseLimit(1_000_000_000);
    await receiver.close();
  });

  it('a rule missing what its kind needs is refused with errors on its fields', async () => {
    const r = await console_.call('POST', '/console/alerts/rules', { body: { name: 'x', kind: 'session_stuck' } });
    expect(r.status).toBe(422);
    const locs = r.body.errors.map((e: { loc: string[] }) => e.loc.at(-1));
    expect(locs).toEqual(expect.arrayContaining(['duration_minutes', 'session_statuses']));
  });
});

describe('webhook targets', () => {
  it('never follows a redirect', async () => {
    const receiver = await startReceiver([302]);
    const r = await sendWebhook({
      url: receiver.url,
      secret: 's',
      body: '{}',
      deliveryId: 1,
      policy: { allow: ['127.0.0.1'] },
      timeoutMs: 2_000,
      now: Date.now,
    });
    expect(r).toMatchObject({ kind: 'fail', responseCode: 302 });
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });

  it('refuses loopback and private ranges unless allowed', async () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:10.0.0.1',
      '0.0.0.0',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '2606:4700::1111']) expect(isPrivateAddress(a), a).toBe(false);
    await expect(vetTarget('http://localhost:9/x', { allow: [] })).rejects.toBeInstanceOf(TargetRefused);
    await expect(vetTarget('http://[::1]:9/x', { allow: [] })).rejects.toBeInstanceOf(TargetRefused);
    await expect(vetTarget('http://10.0.0.5/x', { allow: ['10.0.0.0/8'] })).resolves.toMatchObject({
      address: '10.0.0.5',
    });
    await expect(vetTarget('http://user:pw@example.com/', { allow: [] })).rejects.toBeInstanceOf(TargetRefused);
  });
});

describe('two replicas on one PostgreSQL database', () => {
  let x: Replica;
  let y: Replica;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    const url = await newTestDatabase('alerts');
    receiver = await startReceiver();
    const upstream = { baseUrl: sandbox.url, apiKey: ADMIN };
    // Loopback is allowed for this test's receiver only: 127.0.0.1, not any other private range.
    const config = { alertsAllowPrivateTargets: ['127.0.0.1'], alertsIntervalS: 0, alertsRetryBaseMs: 20 };
    [x, y] = await Promise.all([startReplica(url, upstream, config), startReplica(url, upstream, config)]);
  }, 90_000);
  afterAll(async () => {
    await Promise.all([x?.close(), y?.close()]);
    await receiver?.close();
  });

  it('a crossing is delivered once across replicas; a private range not allowed is refused', async () => {
    const [cx, cy] = await Promise.all([x.signIn(), y.signIn()]);
    for (const url of [`http://10.0.0.5/hook/${TOKEN}`, `http://[fd00::1]/hook/${TOKEN}`]) {
      const refused = await x.call('POST', '/console/alerts/webhooks', {
        cookie: cx,
        json: { name: 'Probe', url, format: 'json' },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors[0].loc).toEqual(['body', 'url']);
      expect(refused.text).not.toContain(TOKEN);
    }
    const hook = await x.call('POST', '/console/alerts/webhooks', {
      cookie: cx,
      json: { name: 'Ops', url: receiver.url, format: 'json' },
    });
    expect(hook.status).toBe(201);
    try {
      await setEnterpriseLimit(1);
      const rule = await y.call('POST', '/console/alerts/rules', {
        cookie: cy,
        json: {
          name: 'Any use',
          kind: 'consumption',
          threshold_percent: 1,
          consumption_mode: 'reached',
          destination_ids: [hook.body.destination_id],
        },
      });
      expect(rule.status).toBe(201);
      const results = await Promise.all([
        x.call('POST', '/console/alerts/evaluations', { cookie: cx }),
        y.call('POST', '/console/alerts/evaluations', { cookie: cy }),
        x.call('POST', '/console/alerts/evaluations', { cookie: cx }),
        y.call('POST', '/console/alerts/evaluations', { cookie: cy }),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      await Promise.all([
        x.call('POST', '/console/alerts/evaluations', { cookie: cx }),
        y.call('POST', '/console/alerts/evaluations', { cookie: cy }),
      ]);
      expect(receiver.received).toHaveLength(1);
      checkSigned(receiver.received[0]!, hook.body.signing_secret);
      for (const [r, c] of [
        [x, cx],
        [y, cy],
      ] as const) {
        const list = await r.call('GET', '/console/alerts/notifications', { cookie: c });
        expect(list.body.items).toHaveLength(1);
        expect((await r.call('GET', '/console/alerts/webhooks', { cookie: c })).text).not.toContain(TOKEN);
      }
    } finally {
      await setEnterpriseLimit(1_000_000_000);
    }
  });
});

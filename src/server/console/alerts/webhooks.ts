/**
 * Sending one webhook attempt: the body signed with the destination's secret (`X-Console-Signature: sha256=<hex>`
 * over `<timestamp>.<body>`, `X-Console-Timestamp`), to the address `targets.ts` checked (the connection goes to
 * that address; TLS still checks the host's name), within a time limit, never following a redirect, reading at
 * most a few kilobytes of the answer. What it answers is an outcome for the delivery log: never the URL.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { DELIVERY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../../api/console/alerts';
import { TargetRefused, vetTarget, type TargetPolicy } from './targets';

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Checks a signature as a receiver would (tests, and the README's example). */
export function verifySignature(secret: string, timestamp: number, body: string, header: string): boolean {
  const want = Buffer.from(signatureOf(secret, timestamp, body));
  const got = Buffer.from(header);
  return want.length === got.length && timingSafeEqual(want, got);
}

export interface SendResult {
  /** `delivered`: 2xx. `retry`: 5xx, 408, 429, a timeout or a connection failure. `fail`: anything else. */
  kind: 'delivered' | 'retry' | 'fail';
  responseCode: number | null;
  /** Why it did not deliver, in words for the log (never the URL). */
  error: string | null;
}

export interface SendInput {
  url: string;
  secret: string;
  body: string;
  deliveryId: number;
  policy: TargetPolicy;
  timeoutMs: number;
  now: () => number;
}

const MAX_ANSWER_BYTES = 4_096;

export async function sendWebhook(input: SendInput): Promise<SendResult> {
  let target;
  try {
    target = await vetTarget(input.url, input.policy);
  } catch (err) {
    if (err instanceof TargetRefused) return { kind: 'fail', responseCode: null, error: err.message };
    throw err;
  }
  const timestamp = Math.floor(input.now() / 1000);
  const { url, address, family } = target;
  // Connect to the checked address only: a second lookup could answer another one.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = send(
      url,
      {
        method: 'POST',
        lookup: pinned,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'agent-platform-console-alerts',
          [SIGNATURE_HEADER]: signatureOf(input.secret, timestamp, input.body),
          [TIMESTAMP_HEADER]: String(timestamp),
          [DELIVERY_HEADER]: String(input.deliveryId),
          'content-length': String(Buffer.byteLength(input.body)),
        },
        agent: false,
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const finish = () => {
          const code = res.statusCode ?? 0;
          if (code >= 200 && code < 300) done({ kind: 'delivered', responseCode: code, error: null });
          else if (code >= 300 && code < 400) {
            done({
              kind: 'fail',
              responseCode: code,
              error: `answered with a redirect (${code}), which is not followed`,
            });
          } else if (code >= 500 || code === 408 || code === 429) {
            done({ kind: 'retry', responseCode: code, error: `answered ${code}` });
          } else done({ kind: 'fail', responseCode: code, error: `answered ${code}` });
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ kind: 'retry', responseCode: null, error: `no answer within ${Math.round(input.timeoutMs / 1000)} s` });
    }, input.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ kind: 'retry', responseCode: null, error: `could not connect (${err.code ?? 'connection failed'})` }),
    );
    req.end(input.body);
  });
}

/**
 * The policy's rules read from the contract: each console operation's permission comes from its definition (no
 * second list), an organization named by another path parameter or in the body is matched like `{org_id}`, and
 * a body read to find its organization reaches the next reader intact.
 */
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleOperationList, consoleOperations } from '../../api/console';
import { consolePermissionOf } from '../../api/console/define';
import type { Principal } from '../console/actor';
import { peekJsonBody } from './body';
import { decide, decideOperation } from './enforce';
import { consoleOperationOf, type MatchedOperation } from './operations';
import { parsePolicy, rolesFor } from './policy';

const policy = parsePolicy(
  JSON.stringify({
    roles: { billing: { permissions: ['ManageBilling', 'ManageOrgSessions'], organizations: ['org-a'] } },
    grants: [
      { group: 'billing', role: 'billing' },
      { group: 'help-desk', role: 'viewer' },
    ],
  }),
  'p.json',
);
const person = (groups: string[]): Principal => ({
  method: 'oidc',
  subject: 's',
  name: 'N',
  email: null,
  groups,
  roles: rolesFor(policy, { via: 'oidc', groups }),
});
const billing = person(['billing']);
const viewer = person(['help-desk']);

describe('the policy reads the operation tables', () => {
  it('matches every console operation to its own definition and permission', () => {
    for (const op of consoleOperationList) {
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => `x-${name}`);
      const found = consoleOperationOf(op.method, path);
      expect(found?.id, path).toBe(op.id);
      expect(found?.permission, op.id).toBe(consolePermissionOf(op));
    }
    expect(consoleOperations['console.gitPermissions.update'].permission).toBe('ManageGitIntegrations');
    // A write defined without a permission needs the admin role; a read, any role.
    expect(consolePermissionOf({ method: 'POST' })).toBe('admin');
    expect(consolePermissionOf({ method: 'GET' })).toBeNull();
  });

  it('takes the organization from the path parameter the definition names (an ACU limit by level)', () => {
    const at = (level: string) => decide(policy, billing, 'PUT', `/console/settings/acu-limits/${level}`);
    expect(at('org-a')).toMatchObject({ allowed: true, op: { org: 'org-a' } });
    expect(at('org-b')).toMatchObject({ allowed: false, permission: 'ManageBilling', org: 'org-b' });
    expect(at('enterprise')).toMatchObject({ allowed: false, org: null });
    expect(decide(policy, viewer, 'PUT', '/console/settings/acu-limits/org-a')).toMatchObject({ allowed: false });
  });

  it('takes the organization from the body when the operation names it there', () => {
    const op: MatchedOperation = {
      id: 'sessions.x.create',
      permission: 'ManageOrgSessions',
      org: null,
      params: {},
      orgInBody: 'org_id',
    };
    const path = '/api/v3/enterprise/x';
    expect(decideOperation(policy, billing, 'POST', path, op, { org_id: 'org-a' })).toMatchObject({
      allowed: true,
      op: { org: 'org-a' },
    });
    const other = decideOperation(policy, billing, 'POST', path, op, { org_id: 'org-b' });
    expect(other).toMatchObject({ allowed: false, org: 'org-b', permission: 'ManageOrgSessions' });
    expect(!other.allowed && other.detail).toContain('in organization org-b');
    // No body, or none naming an organization: enterprise-wide, which a limited role never covers.
    expect(decideOperation(policy, billing, 'POST', path, op, undefined)).toMatchObject({ allowed: false, org: null });
    expect(decideOperation(policy, billing, 'POST', path, op, { org_id: 7 })).toMatchObject({ allowed: false });
    // The console's own operation naming it in its body records it too (the admin role is still what it needs).
    const rule = decide(policy, billing, 'POST', '/console/alerts/rules', { org_id: 'org-a' });
    expect(rule).toMatchObject({ allowed: false, permission: 'admin', org: 'org-a' });
  });
});

describe('reading a body to find its organization', () => {
  let port: number;
  const seen: Array<{ peeked: unknown; rest: string }> = [];
  const server = createServer((req: IncomingMessage, res) => {
    void peekJsonBody(req, 64).then((peeked) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ peeked, rest: Buffer.concat(chunks).toString('utf8') });
        res.end('ok');
      });
    });
  });
  beforeAll(() => new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r())));
  beforeAll(() => void (port = (server.address() as AddressInfo).port));
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const send = (body: string, chunked: boolean, slow = false) =>
    new Promise<{ peeked: unknown; rest: string }>((resolve, reject) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (!chunked) headers['content-length'] = String(Buffer.byteLength(body));
      const req = request({ port, host: '127.0.0.1', method: 'POST', path: '/', headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(seen.at(-1)!));
      });
      req.on('error', reject);
      if (slow) {
        // Two writes apart: the body arrives in pieces.
        req.write(body.slice(0, 5));
        setTimeout(() => req.end(body.slice(5)), 30);
      } else req.end(body);
    });

  it('leaves every byte for the next reader, whole or in pieces, with or without a length', async () => {
    const body = JSON.stringify({ org_id: 'org-a', name: 'x' });
    expect(await send(body, false)).toEqual({ peeked: { org_id: 'org-a', name: 'x' }, rest: body });
    expect(await send(body, true, true)).toEqual({ peeked: { org_id: 'org-a', name: 'x' }, rest: body });
  });

  it('reads nothing past its bound, and a body that is not JSON finds nothing', async () => {
    const big = JSON.stringify({ org_id: 'org-a', pad: 'y'.repeat(100) });
    expect(await send(big, false)).toEqual({ peeked: undefined, rest: big });
    expect(await send(big, true, true)).toEqual({ peeked: undefined, rest: big });
    expect(await send('not json', false)).toEqual({ peeked: undefined, rest: 'not json' });
  });
});

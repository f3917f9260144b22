/**
 * The vendor-shaped sandbox: `SANDBOX_SHAPE` is read and checked, answers are cut to the vendor document's
 * shapes, and each operation the vendor covers is served only at the vendor's path. (The faithfulness test
 * checks every operation with a third-party validator; these pin the rules themselves.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSandboxConfig, SandboxConfigError } from './config';
import { SANDBOX_CREDENTIALS } from './credentials';
import { createSandbox, type Sandbox } from './index';
import { servedPaths, shapeToSchema, vendorAnswer, findVendorOperation } from './vendor-shape';

describe('SANDBOX_SHAPE', () => {
  it('is spec unless set, and vendor when asked', () => {
    expect(loadSandboxConfig({}, {}).shape).toBe('spec');
    expect(loadSandboxConfig({ SANDBOX_SHAPE: 'vendor' }, {}).shape).toBe('vendor');
    expect(loadSandboxConfig({ SANDBOX_SHAPE: ' spec ' }, {}).shape).toBe('spec');
  });

  it('refuses any other value with one line naming the variable and the values it takes', () => {
    expect(() => loadSandboxConfig({ SANDBOX_SHAPE: 'Vendor' }, {})).toThrow(SandboxConfigError);
    expect(() => loadSandboxConfig({ SANDBOX_SHAPE: 'real' }, {})).toThrow(
      /^Invalid configuration:\n {2}- SANDBOX_SHAPE must be "spec" or "vendor" \(got "real"\)$/,
    );
  });
});

describe('shaping an answer to the vendor schema', () => {
  it('keeps only declared properties, through references, arrays and pages', () => {
    const op = findVendorOperation('GET', '/v3/enterprise/roles')!;
    const body = {
      items: [
        { role_id: 'r1', role_name: 'Viewer', role_type: 'organization', permissions: ['ViewX'], is_built_in: true },
      ],
      has_next_page: false,
      end_cursor: null,
      sandbox_only: 1,
    };
    expect(vendorAnswer(op, 200, body)).toEqual({
      status: 200,
      body: {
        items: [{ role_id: 'r1', role_name: 'Viewer', role_type: 'org' }],
        has_next_page: false,
        end_cursor: null,
      },
    });
  });

  it('follows allOf with nullable, keeps free-form objects, writes Unix times the vendor spells as date-time', () => {
    const schedule = { $ref: '#/components/schemas/ScheduleResponse' };
    const shaped = shapeToSchema(
      {
        scheduled_session_id: 's1',
        created_at: 0,
        playbook: { playbook_id: 'p1', title: 'T', extra: true },
        agent: 'agent',
        next_run_at: 5,
      },
      schedule,
    ) as Record<string, unknown>;
    expect(shaped.created_at).toBe('1970-01-01T00:00:00.000Z');
    expect(shaped.agent).toBe('devin');
    expect(shaped).not.toHaveProperty('next_run_at');
    expect(shaped.playbook).not.toHaveProperty('extra');
    expect(shapeToSchema({ playbook: null }, schedule)).toEqual({ playbook: null });
    const playbook = shapeToSchema(
      { structured_output_schema: { type: 'object', anything: [1] } },
      { $ref: '#/components/schemas/PlaybookResponse' },
    );
    expect(playbook).toEqual({ structured_output_schema: { type: 'object', anything: [1] } });
  });

  it("answers with the vendor's one success status", () => {
    const create = findVendorOperation('POST', '/v3/enterprise/organizations')!;
    expect(vendorAnswer(create, 201, { org_id: 'o' }).status).toBe(200);
    const put = findVendorOperation('PUT', '/v3/enterprise/consumption/acu-limits/devin/organizations/{x}')!;
    expect(vendorAnswer(put, 200, { ok: true })).toEqual({ status: 204, body: undefined });
  });

  it("serves only the vendor's paths of an operation it covers, and every path of one it does not", () => {
    const paths = ['/v3/enterprise/consumption/acu-limits/agent', '/v3/enterprise/consumption/acu-limits/devin'];
    expect(servedPaths('GET', paths, 'vendor').map((p) => p.path)).toEqual([paths[1]]);
    expect(servedPaths('GET', paths, 'spec').map((p) => p.path)).toEqual(paths);
    expect(servedPaths('GET', ['/v3/organizations/{org_id}/sessions'], 'vendor')).toEqual([
      { path: '/v3/organizations/{org_id}/sessions', vendor: undefined },
    ]);
  });
});

describe('a vendor-shaped sandbox', () => {
  let sb: Sandbox;
  let orgId: string;
  const get = async (path: string) => {
    const res = await sb.fetch(
      new Request(`http://sandbox.test${path}`, { headers: { authorization: `Bearer ${SANDBOX_CREDENTIALS.admin}` } }),
    );
    return { status: res.status, body: (await res.json()) as any };
  };
  beforeAll(async () => {
    sb = createSandbox({ dbPath: ':memory:', shape: 'vendor', validateResponses: true });
    orgId = (await get('/v3/enterprise/organizations')).body.items[0].org_id;
  });
  afterAll(() => sb.close());

  it("answers roles without the sandbox's permissions and built-in flag", async () => {
    const res = await get('/v3/enterprise/roles');
    expect(res.status).toBe(200);
    for (const role of res.body.items) expect(Object.keys(role).sort()).toEqual(['role_id', 'role_name', 'role_type']);
  });

  it("serves the organization's members at the vendor's path only", async () => {
    expect((await get(`/v3/enterprise/organizations/${orgId}/members/users`)).status).toBe(200);
    const spec = await get(`/v3beta1/organizations/${orgId}/members/users`);
    expect(spec.status).toBe(404);
    expect(spec.body.detail).toMatch(/No operation at GET/);
  });

  it('serves what the vendor does not cover as the spec-shaped sandbox does', async () => {
    const res = await get(`/v3/organizations/${orgId}/sessions?first=1`);
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toHaveProperty('session_id');
  });
});

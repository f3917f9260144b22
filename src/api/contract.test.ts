/** The shared contract: limits, query parsing, envelope, problem helpers and the operation table. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { First, PageQuery, QueryBoolean, queryArray } from './conventions';
import { buildPath, operationList } from './operations';
import { nextCursor, pageOf } from './page';
import { PERMISSIONS, READ_PERMISSIONS, SPEC_PERMISSIONS } from './permissions';
import { fieldPath, issuesToFieldErrors, ProblemDetail } from './problem';

describe('paging query', () => {
  it('accepts first from 1 to 200 and carries its default (100) in the contract', () => {
    expect(First.parse('1')).toBe(1);
    expect(First.parse('200')).toBe(200);
    expect(First.parse(undefined)).toBe(100);
    for (const bad of ['0', '201', 'abc', '1.5', '1e2', ' ']) expect(First.safeParse(bad).success, bad).toBe(false);
  });

  it('passes the cursor back unchanged', () => {
    expect(PageQuery.parse({ after: 'eyJz_-' })).toEqual({ first: 100, after: 'eyJz_-' });
  });
});

describe('query arrays and booleans', () => {
  const Origins = queryArray(z.enum(['webapp', 'api', 'slack']));
  it('accepts repeated keys and comma-joined values alike', () => {
    expect(Origins.parse(['webapp', 'api'])).toEqual(['webapp', 'api']);
    expect(Origins.parse('webapp,api')).toEqual(['webapp', 'api']);
    expect(Origins.parse(['webapp,api', 'slack'])).toEqual(['webapp', 'api', 'slack']);
    expect(Origins.parse(undefined)).toBeUndefined();
    expect(Origins.safeParse('fax').success).toBe(false);
  });
  it('reads booleans', () => {
    expect(QueryBoolean.parse('true')).toBe(true);
    expect(QueryBoolean.parse('0')).toBe(false);
    expect(QueryBoolean.safeParse('yes').success).toBe(false);
  });
});

describe('page envelope', () => {
  const Page = pageOf(z.object({ id: z.string() }));
  it('defaults has_next_page and allows total to be omitted', () => {
    expect(Page.parse({ items: [], end_cursor: null })).toEqual({ items: [], end_cursor: null, has_next_page: false });
  });
  it('gives the next cursor only while has_next_page', () => {
    expect(nextCursor({ has_next_page: true, end_cursor: 'c' })).toBe('c');
    expect(nextCursor({ has_next_page: false, end_cursor: 'c' })).toBeUndefined();
  });
});

describe('problem details', () => {
  it('parses a minimal and a full problem, keeping unknown fields', () => {
    expect(ProblemDetail.parse({ status: 404, title: 'Not Found' }).type).toBe('about:blank');
    expect(ProblemDetail.parse({ status: 403, title: 'Forbidden', permission: 'X' })).toHaveProperty('permission', 'X');
  });
  it('locates field errors', () => {
    const r = z
      .object({ permissions: z.array(z.object({ repo_path: z.string() })) })
      .safeParse({ permissions: [{ repo_path: 1 }] });
    const errors = issuesToFieldErrors('body', r.success ? [] : r.error.issues);
    expect(errors[0]!.loc).toEqual(['body', 'permissions', 0, 'repo_path']);
    expect(fieldPath(errors[0]!.loc)).toBe('permissions.0.repo_path');
  });
});

describe('permissions', () => {
  it('holds every permission name the spec uses', () => {
    for (const p of [
      'ManageGitIntegrations',
      'IndexOrgRepositories',
      'ManageRepoBlueprints',
      'ManageAccountKnowledge',
      'UseAccountCodeScans',
      'ViewOrgMetrics',
    ]) {
      expect(SPEC_PERMISSIONS).toContain(p);
    }
    expect(READ_PERMISSIONS.every((p) => p.startsWith('View'))).toBe(true);
    expect(new Set(PERMISSIONS).size).toBe(PERMISSIONS.length);
  });
  it('gives every operation a known permission', () => {
    for (const op of operationList) {
      expect([...PERMISSIONS, 'AnyCredential'], op.id).toContain(op.permission);
    }
  });
});

describe('buildPath', () => {
  it('fills and encodes path parameters, refusing missing ones', () => {
    expect(buildPath('/v3/enterprise/organizations/{org_id}', { org_id: 'org-1' })).toBe(
      '/v3/enterprise/organizations/org-1',
    );
    expect(buildPath('/v3/x/{id}', { id: '../a' })).toBe('/v3/x/..%2Fa');
    expect(() => buildPath('/v3/x/{id}', {})).toThrow(/missing path parameter id/);
  });
});

describe('operation ids', () => {
  it('follow one pattern: area, then scope or sub-resource when needed, then a verb', async () => {
    const { operationList } = await import('./operations');
    const { consoleOperationList } = await import('./console');
    const verbs = new Set([
      'list',
      'get',
      'create',
      'update',
      'delete',
      'replace',
      'clear',
      'append',
      'send',
      'archive',
      'terminate',
      'generate',
      'remove',
      'restore',
      'diff',
      'health',
      'config',
      'remediate',
      'apply',
      'assign',
      'set',
      'change',
      'validate',
      'plan',
      'cancel',
      'export',
    ]);
    for (const op of [...operationList, ...consoleOperationList]) {
      expect(op.id, op.id).toMatch(/^[a-z][a-zA-Z]*(\.[a-z][a-zA-Z]*)+$/);
      expect(verbs.has(op.id.split('.').at(-1)!), `${op.id} ends with a verb`).toBe(true);
    }
  });
});

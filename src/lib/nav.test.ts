/** Every navigation entry leads to a route that exists. */
import { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory, createRouter } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { routeTree } from '@/routeTree.gen';
import { operations } from '@/api/operations';
import { ENTERPRISE_NAV, organizationNav } from './nav';

describe('navigation', () => {
  it('points only at existing routes', () => {
    const router = createRouter({
      routeTree,
      history: createMemoryHistory(),
      context: { queryClient: new QueryClient() },
    });
    const paths = new Set(Object.keys(router.routesByPath).map((p) => (p === '/' ? p : p.replace(/\/$/, ''))));
    for (const item of [...ENTERPRISE_NAV, ...organizationNav('org-x')]) {
      expect([...paths], item.to).toContain(item.to);
    }
  });

  it("names the permission of its screen's first read, as the contract has it", () => {
    for (const item of [...ENTERPRISE_NAV, ...organizationNav('org-x')]) {
      const op = (operations as Record<string, { permission: string }>)[item.operation];
      expect(op, item.operation).toBeDefined();
      expect(item.permission, item.label).toBe(op!.permission);
    }
  });
});

/**
 * The doctor's table of the console's screens (`CONSOLE_SCREENS`, kept free of the browser's router so the CLI can
 * read it) is the navigation's, entry for entry; the fields screens rely on (`SCREEN_FIELDS`) name real screens,
 * real read operations and fields their answers' items can carry.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ENTERPRISE_NAV, organizationNav } from '@/lib/nav';
import { CONSOLE_SCREENS, SCREEN_FIELDS } from '../../../api/console/doctor';
import { operationList } from '../../../api/operations';
import type { OperationDef } from '../../../api/operations/define';

const pick = (section: string, n: { label: string; to: string; permission: string; operation: string }) => ({
  section,
  label: n.label,
  to: n.to,
  permission: n.permission,
  operation: n.operation,
});

/** The object schema of an answer, or of each item of a list answer. */
function itemShape(schema: z.ZodType | undefined, paginated: boolean): Record<string, unknown> {
  const shape = (s: unknown) => (s as { shape?: Record<string, unknown> }).shape ?? {};
  if (!paginated) return shape(schema);
  const items = shape(schema).items as { element?: unknown } | undefined;
  return shape(items?.element);
}

describe('the screens the doctor checks', () => {
  it('are the navigation, entry for entry', () => {
    expect(CONSOLE_SCREENS).toEqual([
      ...ENTERPRISE_NAV.map((n) => pick('Enterprise', n)),
      ...organizationNav('$orgId').map((n) => pick('Organization', n)),
    ]);
  });

  it('rely on fields of read operations of the contract, each a field its answer can carry', () => {
    const routes = new Set(CONSOLE_SCREENS.map((s) => s.to));
    const byId = new Map<string, OperationDef>(operationList.map((op) => [op.id, op]));
    for (const [to, fields] of Object.entries(SCREEN_FIELDS)) {
      expect(routes.has(to), to).toBe(true);
      for (const f of fields) {
        const op = byId.get(f.operation);
        expect(op?.method, `${to}: ${f.operation}`).toBe('GET');
        expect(Object.keys(itemShape(op!.response, op!.paginated === true)), `${f.operation}`).toContain(f.field);
      }
    }
  });
});

/** The browser's endpoint map is generated from the operation table and must not go stale. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderEndpoints } from '../../scripts/gen-endpoints';
import { ENDPOINTS } from './endpoints.gen';
import { operationList } from './operations';

describe('endpoints.gen.ts', () => {
  it('is what scripts/gen-endpoints.ts writes from the current operation table (run npm run typecheck)', () => {
    expect(readFileSync(join(import.meta.dirname, 'endpoints.gen.ts'), 'utf8')).toBe(renderEndpoints());
  });

  it('holds the method and path of every operation', () => {
    for (const op of operationList) {
      expect(ENDPOINTS[op.id as keyof typeof ENDPOINTS], op.id).toEqual([op.method, op.path]);
    }
  });
});

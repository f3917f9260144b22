/** The lazily loaded alternates table is generated from the contract and kept in step with it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operationList } from '@/api/operations';
import { renderAlternates } from '../../scripts/gen-endpoints';
import { ALTERNATES } from './alternates.gen';

describe('alternates.gen.ts', () => {
  it('is up to date (run `npx tsx scripts/gen-endpoints.ts`)', () => {
    expect(readFileSync(join(import.meta.dirname, 'alternates.gen.ts'), 'utf8')).toBe(renderAlternates());
  });

  it("lists every operation's alternates, in the contract's order", () => {
    for (const op of operationList) expect(ALTERNATES[op.id] ?? [], op.id).toEqual(op.alternates ?? []);
  });
});

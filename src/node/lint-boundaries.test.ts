/**
 * The import boundaries hold on resolved paths: each fixture of scripts/lint-fixtures/ is linted with the
 * repository's own ESLint configuration as if it were at the path it names, and must meet exactly the boundary
 * errors it expects (a feature importing another relatively from a subfolder, by alias or through import();
 * shared code importing the app or routes; the contract importing products or UI), while a feature's own
 * `../api` passes. The cycle rule is on for src/, and catches a cycle closed by a dynamic import.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import boundaries from '../../scripts/eslint-boundaries.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.join(ROOT, 'scripts/lint-fixtures');
const fixtures = readdirSync(FIXTURES).filter((f) => /\.tsx?$/.test(f));

function header(text: string) {
  const as = text.match(/^\/\/ as: (\S+)/m)?.[1];
  const expected = Number(text.match(/^\/\/ expect: (\d+)/m)?.[1]);
  if (!as || !Number.isInteger(expected))
    throw new Error('a fixture names its path (// as:) and its errors (// expect:)');
  return { as, expected };
}

describe('the boundary lint', () => {
  const eslint = new ESLint({ cwd: ROOT });

  it.each(fixtures)('%s meets exactly the boundary errors it expects', async (name) => {
    const text = readFileSync(path.join(FIXTURES, name), 'utf8');
    const { as, expected } = header(text);
    const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, as) });
    const found = result!.messages.filter((m) => m.ruleId?.startsWith('boundaries/'));
    expect(found.map((m) => `${m.line}: ${m.message}`)).toHaveLength(expected);
  });

  it('has the cycle rule on for src/', async () => {
    const config = (await eslint.calculateConfigForFile(path.join(ROOT, 'src/lib/anything.ts'))) as {
      rules: Record<string, unknown>;
    };
    expect(config.rules['boundaries/no-cycle']).toEqual([2]);
    expect(config.rules['boundaries/zones']).toEqual([2]);
  });

  it('rejects a cycle closed by import(), not one through a type-only import', async () => {
    const cycle = new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      ignore: false,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: (await import('typescript-eslint')).parser },
          plugins: { boundaries },
          rules: { 'boundaries/no-cycle': 'error' },
        },
      ],
    });
    const [a, b] = await cycle.lintFiles([path.join(FIXTURES, 'cycle/a.ts'), path.join(FIXTURES, 'cycle/b.ts')]);
    expect(a!.messages.map((m) => m.message)).toEqual([
      expect.stringMatching(/closes a cycle: .*a\.ts → .*b\.ts → .*a\.ts/),
    ]);
    // b's `import type` is erased; its import() is the one that closes the cycle.
    expect(b!.messages.map((m) => m.line)).toEqual([4]);
  });
});

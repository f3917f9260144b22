/**
 * The chart library stays off the first screen: nothing the shell, the navigation, the route search schemas of
 * the usage screens or the organization overview's usage panel import (statically, all the way down) reaches
 * recharts or the usage charts. Only the usage routes' lazily loaded components do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../..');

function resolveImport(from: string, spec: string): string | null {
  const base = spec.startsWith('@/')
    ? join(SRC, spec.slice(2))
    : spec.startsWith('.')
      ? resolve(dirname(from), spec)
      : null;
  if (base === null) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && !candidate.endsWith('/')) {
      try {
        readFileSync(candidate);
        return candidate;
      } catch {
        // a directory
      }
    }
  }
  return null;
}

/** Every module and package reached by static imports (type-only imports left out) from `entry`. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
      const spec = m[2]!;
      const target = resolveImport(file, spec);
      if (target) todo.push(target);
      else if (!spec.startsWith('.') && !spec.startsWith('@/')) packages.add(spec);
    }
  }
  return { files, packages };
}

describe('the chart library stays on the usage routes', () => {
  for (const entry of [
    'app/shell/app-shell.tsx',
    'lib/nav.ts',
    'app/shell/queue-status.tsx',
    'features/usage/search.ts',
    'features/usage/org-usage-panel.tsx',
    // The per-person table draws no chart: it does not load the library either.
    'features/usage/people-screen.tsx',
    'features/usage/people-search.ts',
  ]) {
    it(`${entry} does not reach recharts`, () => {
      const { files, packages } = staticGraph(join(SRC, entry));
      expect(files.size).toBeGreaterThan(0);
      expect([...packages].filter((p) => p.startsWith('recharts'))).toEqual([]);
      expect([...files].filter((f) => f.endsWith('features/usage/charts.tsx'))).toEqual([]);
    });
  }

  it('the dashboard does reach it (the walk sees through imports)', () => {
    const { packages } = staticGraph(join(SRC, 'features/usage/usage-dashboard.tsx'));
    expect(packages.has('recharts')).toBe(true);
    expect(staticGraph(join(SRC, 'features/capacity/capacity-screen.tsx')).packages.has('recharts')).toBe(true);
  });
});

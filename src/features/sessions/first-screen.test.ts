/**
 * What the sessions lists' first screen is made of: the static imports reachable from their routes (what the
 * build puts in the route's chunks and the console server preloads with the HTML). zod and the sessions
 * contract's schemas, the menus (select, dropdown, popover), the dialogs and the saved views must stay out:
 * they load on first use. Also checks the lean copies of the contract's values against the contract.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as contract from '@/api/operations/sessions';
import { isTerminalStatus, SESSION_STATUSES, TERMINAL_SESSION_STATUSES } from './statuses';

const SRC = resolve(import.meta.dirname, '../..');

function resolveModule(from: string, spec: string): string | null {
  const base = spec.startsWith('@/') ? join(SRC, spec.slice(2)) : resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx'), base]) {
    if (existsSync(candidate) && /\.tsx?$/.test(candidate)) return candidate;
  }
  return null;
}

/**
 * The modules statically reachable from `entry` (not past `stop`), each with the packages it imports.
 * `import type`/`export type` are skipped (erased); `import { type X }` is not (under verbatimModuleSyntax it
 * still loads the module); `import()` is not followed.
 */
function staticGraph(entry: string, stop: (file: string) => boolean = () => false): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const statement = /^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  const visit = (file: string) => {
    if (graph.has(file) || stop(file)) return;
    const packages: string[] = [];
    graph.set(file, packages);
    for (const [, typeOnly, spec] of readFileSync(file, 'utf8').matchAll(statement)) {
      if (typeOnly || !spec) continue;
      if (spec.startsWith('.') || spec.startsWith('@/')) {
        const target = resolveModule(file, spec);
        if (target) visit(target);
      } else packages.push(spec);
    }
  };
  visit(entry);
  return graph;
}

/**
 * What a route's screen adds to the shell: the modules reachable from the route and not from the app's entry
 * (whose modules are on every screen anyway, tree-shaken by the build in ways this reading cannot see).
 */
function screenModules(route: string): Map<string, string[]> {
  const shell = staticGraph(join(SRC, 'main.tsx'), (f) => f.endsWith('routeTree.gen.ts'));
  const screen = staticGraph(join(SRC, route));
  return new Map([...screen].filter(([file]) => !shell.has(file)).map(([f, p]) => [relative(SRC, f), p]));
}

const DEFERRED = [
  'api/operations/sessions.ts',
  'components/saved-views.tsx',
  'components/filter-bar.tsx',
  'components/ui/select.tsx',
  'components/ui/dropdown-menu.tsx',
  'components/ui/popover.tsx',
  'components/ui/dialog.tsx',
  'components/ui/alert-dialog.tsx',
  'features/sessions/control-menus.tsx',
  'features/sessions/bulk-dialog.tsx',
];

describe("the sessions lists' first screen", () => {
  for (const route of ['routes/orgs/$orgId/sessions/index.tsx', 'routes/sessions/index.tsx']) {
    it(`${route} reaches neither zod nor the menus and dialogs loaded on first use`, () => {
      const modules = screenModules(route);
      expect([...modules.keys()]).toContain('features/sessions/sessions-list.tsx');
      expect([...modules.keys()]).toContain('features/sessions/session-filters.tsx');
      expect([...modules].filter(([, packages]) => packages.includes('zod')).map(([m]) => m)).toEqual([]);
      expect([...modules.keys()].filter((m) => DEFERRED.includes(m))).toEqual([]);
    });
  }

  it('keeps the statuses in step with the contract', () => {
    expect(SESSION_STATUSES).toEqual([...contract.SESSION_STATUSES]);
    expect(TERMINAL_SESSION_STATUSES).toEqual(contract.TERMINAL_SESSION_STATUSES);
    for (const s of [...SESSION_STATUSES, 'paused_by_admin'])
      expect(isTerminalStatus(s), s).toBe(contract.isTerminalStatus(s));
  });
});

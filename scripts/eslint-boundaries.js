// The import boundaries of ARCHITECTURE.md as lint rules on resolved paths, whatever way an import is written:
// `@/features/members/api`, `../../members/api` from a feature's subfolder, `import('../../members/api')`
// and `export … from` all resolve to the same file and meet the same rule. Two rules:
//   boundaries/zones     a file in one zone of src/ importing a zone it must not (`ZONES` below);
//   boundaries/no-cycle  an import that closes a cycle of runtime imports (type-only imports are erased, so
//                        they do not count; dynamic `import()` does).
// Kept here rather than in a plugin package: the rules are the architecture's own, and a resolver for `@/` and
// extension-less TypeScript paths is a few lines. Checked by src/node/lint-boundaries.test.ts against
// scripts/lint-fixtures/ (forbidden imports lint must reject, and allowed ones it must pass).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');
const EXTENSIONS = ['.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx'];
const NODE_ONLY = ['server', 'sandbox', 'node', 'cli'];

/** A path under src/ as its segments (`['features', 'members', 'api.ts']`), or null outside src/. */
function srcSegments(file) {
  const rel = path.relative(SRC, file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? null : rel.split(path.sep);
}

const isTest = (file) => /\.test\.tsx?$/.test(file) || (srcSegments(file)?.[0] ?? '') === 'test';

/** The file (or, when it does not exist, the path) a specifier names; null for a package. */
export function resolveImport(spec, fromFile) {
  let base;
  if (spec.startsWith('@/')) base = path.join(SRC, spec.slice(2));
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(fromFile), spec);
  else return null;
  if (existsSync(base) && statSync(base).isFile()) return base;
  for (const ext of EXTENSIONS) if (existsSync(base + ext)) return base + ext;
  // A path that does not exist (yet) is still judged by where it points.
  return base;
}

/**
 * What `from` (a file under src/) may not import, as a message, given where `to` resolves; null when allowed.
 * Zones by the first folder under src/ (and, for features, the feature's own folder).
 */
export function zoneRefusal(from, to) {
  const f = srcSegments(from);
  const t = srcSegments(to);
  if (!f || !t || f.length < 2 || t.length < 1) return null;
  const [fz, ...fRest] = f;
  const tz = t[0];
  const test = isTest(from);
  if (fz === 'features') {
    if (tz === 'features' && t[1] !== fRest[0] && !test) {
      return `Features never import each other (${fRest[0]} → ${t[1]}); move what both need to src/lib or src/components.`;
    }
    if ((tz === 'app' || tz === 'routes') && !test) return 'Features do not import the app shell or routes.';
  }
  if ((fz === 'lib' || fz === 'components') && ['features', 'app', 'routes'].includes(tz) && !test) {
    return `Shared code (src/${fz}) imports no feature, no app module and no route (src/${tz}).`;
  }
  const outsideContract = ['node', 'sandbox', 'server', 'cli', 'features', 'components', 'lib', 'app', 'routes'];
  if (fz === 'api' && !test && outsideContract.includes(tz)) {
    return `The contract (src/api) imports nothing of the products or the UI (src/${tz}).`;
  }
  if (!NODE_ONLY.includes(fz) && fz !== 'test' && !test && NODE_ONLY.includes(tz)) {
    return `Browser code never imports Node code (src/${tz}).`;
  }
  if (!test) {
    if (fz === 'server' && (tz === 'sandbox' || tz === 'cli')) return `The console server never imports src/${tz}.`;
    if (fz === 'sandbox' && (tz === 'server' || tz === 'cli')) return `The sandbox never imports src/${tz}.`;
    if (fz === 'node' && (tz === 'server' || tz === 'sandbox' || tz === 'cli')) {
      return 'Shared Node code (src/node) imports neither product.';
    }
  }
  return null;
}

// --- The runtime import graph, read from the files themselves (cached by modification time) -------------------

const IMPORT_RE =
  /(?:^|[;\n}])\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
const cache = new Map();

/** Whether an import clause brings in values (not only types): `{ type A, type B }` does not. */
function clauseHasValues(clause) {
  const braces = clause.match(/\{([^}]*)\}/);
  const outside = clause
    .replace(/\{[^}]*\}/, '')
    .replace(/,/g, '')
    .trim();
  if (outside && outside !== 'type') return true;
  if (!braces) return outside !== '';
  return braces[1]
    .split(',')
    .map((s) => s.trim())
    .some((s) => s !== '' && !s.startsWith('type '));
}

/** The files `file` imports at run time (resolved, existing, under the repository). */
function runtimeImports(file) {
  let mtime;
  try {
    mtime = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const hit = cache.get(file);
  if (hit && hit.mtime === mtime) return hit.edges;
  const text = readFileSync(file, 'utf8');
  const edges = new Set();
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[4] ?? m[5] ?? m[6];
    if (m[4] && (m[2] || !clauseHasValues(m[3]))) continue;
    const to = resolveImport(spec, file);
    if (to && existsSync(to) && !path.relative(ROOT, to).startsWith('..')) edges.add(to);
  }
  const out = [...edges];
  cache.set(file, { mtime, edges: out });
  return out;
}

/** A path of runtime imports from `start` back to `target`, or null. */
function pathBack(start, target, limit = 5_000) {
  const seen = new Set([start]);
  const stack = [[start, [start]]];
  while (stack.length > 0 && seen.size < limit) {
    const [file, trail] = stack.pop();
    for (const next of runtimeImports(file)) {
      if (next === target) return [...trail, next];
      if (!seen.has(next)) {
        seen.add(next);
        stack.push([next, [...trail, next]]);
      }
    }
  }
  return null;
}

// --- The rules ------------------------------------------------------------------------------------------------

/** Calls `check(sourceNode, specifier, typeOnly)` for every import, re-export and dynamic import of a file. */
function importVisitors(check) {
  const typeOnly = (node) =>
    node.importKind === 'type' ||
    node.exportKind === 'type' ||
    (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
  const visit = (node) => {
    if (node.source && typeof node.source.value === 'string') check(node.source, node.source.value, typeOnly(node));
  };
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression(node) {
      if (node.source.type === 'Literal' && typeof node.source.value === 'string') {
        check(node.source, node.source.value, false);
      } else if (node.source.type === 'TemplateLiteral' && node.source.expressions.length === 0) {
        check(node.source, node.source.quasis[0].value.cooked, false);
      }
    },
  };
}

const zones = {
  meta: { type: 'problem', docs: { description: 'Import boundaries between the zones of src/, on resolved paths' } },
  create(context) {
    const file = context.filename;
    return importVisitors((node, spec) => {
      const to = resolveImport(spec, file);
      const why = to && zoneRefusal(file, to);
      if (why) context.report({ node, message: `${why} (${spec})` });
    });
  },
};

const noCycle = {
  meta: { type: 'problem', docs: { description: 'No cycle of runtime imports (dynamic imports included)' } },
  create(context) {
    const file = context.filename;
    return importVisitors((node, spec, typeOnly) => {
      if (typeOnly) return;
      const to = resolveImport(spec, file);
      if (!to || !existsSync(to) || to === file) return;
      const back = pathBack(to, file);
      if (back) {
        const chain = back.map((f) => path.relative(ROOT, f)).join(' → ');
        context.report({ node, message: `This import closes a cycle: ${path.relative(ROOT, file)} → ${chain}` });
      }
    });
  },
};

export default { meta: { name: 'boundaries' }, rules: { zones, 'no-cycle': noCycle } };

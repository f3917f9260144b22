/** Types of the boundary rules' ESLint plugin (scripts/eslint-boundaries.js), for the test that lints its fixtures. */
import type { ESLint } from 'eslint';

declare const boundaries: ESLint.Plugin;
export default boundaries;
export function resolveImport(spec: string, fromFile: string): string | null;
export function zoneRefusal(from: string, to: string): string | null;

/**
 * `SANDBOX_SHAPE`: whether the sandbox answers in the contract's shapes (`spec`, the default) or exactly the
 * vendor's (`vendor`). Read by `npm run sandbox` and by the console's configuration for the sandbox it embeds, so
 * it lives here, in the Node code both share (the console server never imports the sandbox).
 */
import type { EnvReader } from './env';

export const SANDBOX_SHAPES = ['spec', 'vendor'] as const;
export type SandboxShape = (typeof SANDBOX_SHAPES)[number];

/** `SANDBOX_SHAPE`, `spec` when unset; a bad value is one problem line. */
export function readSandboxShape({ get, problems }: Pick<EnvReader, 'get' | 'problems'>): SandboxShape {
  const raw = get('SANDBOX_SHAPE');
  if (raw === undefined) return 'spec';
  if ((SANDBOX_SHAPES as readonly string[]).includes(raw)) return raw as SandboxShape;
  problems.push(`SANDBOX_SHAPE must be ${SANDBOX_SHAPES.map((s) => `"${s}"`).join(' or ')} (got "${raw}")`);
  return 'spec';
}

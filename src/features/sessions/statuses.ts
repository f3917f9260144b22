/**
 * Session statuses for the sessions screens' first paint, without zod: the list, its live poll and its filters
 * need these few values, and importing them from the contract (`@/api/operations/sessions`) would bring the
 * contract's schemas, and zod, onto the first screen. sessions.test.ts checks them against the contract.
 */

/** Status values the console knows (the contract's `SESSION_STATUSES`). The API may send others. */
export const SESSION_STATUSES = ['new', 'creating', 'claimed', 'running', 'resuming', 'suspended', 'exit', 'error'];

/** Polling clients stop on these (the contract's `TERMINAL_SESSION_STATUSES`). */
export const TERMINAL_SESSION_STATUSES: readonly string[] = ['exit', 'error', 'suspended'];

export function isTerminalStatus(status: string): boolean {
  return TERMINAL_SESSION_STATUSES.includes(status);
}

/**
 * The sessions list filters as they live in the URL (shareable links): the type of the search and the list's
 * helpers, re-exported for this feature's modules. The search itself is defined once, in `./search.ts`, from the
 * contract's constants; the list's helpers live in `./list-query.ts`, a module without zod (the first paint).
 */
export type { SessionSearch } from './search';

// The helpers of the list live in a module without zod (the list's first paint); re-exported for this module's users.
export { hasFilters, joinList, splitList, TIME_PRESETS, toListFilters, type SessionListFilters } from './list-query';

/** The capacity screen's URL state: which hypervisors the list shows (`?status=draining`; default available). */
import type { HypervisorStatusFilter } from '@/api/operations/capacity';
import { defineSearch, oneOf, type SearchOf } from '@/lib/search-params';

/**
 * The contract's `HYPERVISOR_STATUS_FILTERS`, written here because its module builds schemas (zod would come to
 * the first screen with it); the type check below fails when the two part.
 */
const STATUS_FILTERS = [
  'available',
  'restarting',
  'disconnected',
  'terminated',
  'draining',
  'all',
] as const satisfies readonly HypervisorStatusFilter[];
type Missing = Exclude<HypervisorStatusFilter, (typeof STATUS_FILTERS)[number]>;
const everyFilter: [Missing] extends [never] ? true : Missing = true;
void everyFilter;

export const CapacitySearch = defineSearch({
  operation: 'hypervisors.list',
  fields: { status: oneOf(STATUS_FILTERS) },
  filters: (s): { status: HypervisorStatusFilter } => ({ status: s.status ?? 'available' }),
});
export type CapacitySearch = SearchOf<typeof CapacitySearch>;

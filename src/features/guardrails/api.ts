/**
 * Guardrail violations: query keys, the infinite list over cursor pages, every violation of the current filters
 * (for the chart and the CSV export, bounded), and the guardrails for the filter and the legend.
 *
 * A preset range ("last 7 days") is resolved to exact bounds when the first page loads and carried to every next
 * page. The action filter is sent as the sandbox's `action_taken` extension and applied again here, so an
 * upstream that ignores it still shows only that action.
 */
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { Guardrail, GuardrailViolation } from '@/api/operations/guardrails';
import type { Page } from '@/api/cursor';
import { readAllPages } from '@/api/page-walk';
import { apiCall } from '@/lib/api-client';
import { resolveBounds, type Bounds, type ViolationFilters } from './search';

/** The documented maximum page size. */
export const VIOLATIONS_PAGE_SIZE = 200;
/** The chart and the export read at most this many violations (50 pages). */
export const MAX_ALL_VIOLATIONS = 10_000;

/** `enterprise`, or an organization id. */
export type ViolationScope = string;
export const ENTERPRISE = 'enterprise';

export const guardrailKeys = {
  all: ['guardrails'] as const,
  guardrails: () => [...guardrailKeys.all, 'guardrails'] as const,
  violations: () => [...guardrailKeys.all, 'violations'] as const,
  list: (scope: ViolationScope, filters: ViolationFilters) =>
    [...guardrailKeys.violations(), 'list', scope, filters] as const,
  every: (scope: ViolationScope, filters: ViolationFilters) =>
    [...guardrailKeys.violations(), 'every', scope, filters] as const,
};

export async function fetchViolationsPage(
  scope: ViolationScope,
  f: ViolationFilters,
  bounds: Bounds,
  after: string | undefined,
  signal?: AbortSignal,
): Promise<Page<GuardrailViolation>> {
  const query = {
    first: VIOLATIONS_PAGE_SIZE,
    after,
    order: f.order,
    session_id: f.session_id,
    guardrail_id: f.guardrail_id,
    action_taken: f.action,
    ...bounds,
  };
  const page =
    scope === ENTERPRISE
      ? await apiCall('guardrails.violations.list', { query, signal })
      : await apiCall('guardrails.violations.organization.list', { params: { org_id: scope }, query, signal });
  return f.action ? { ...page, items: page.items.filter((v) => v.action_taken === f.action) } : page;
}

export type ViolationsPage = Page<GuardrailViolation> & { bounds: Bounds };
interface PageParam {
  after?: string;
  bounds?: Bounds;
}

export const violationsInfiniteQueryOptions = (scope: ViolationScope, filters: ViolationFilters) =>
  infiniteQueryOptions({
    queryKey: guardrailKeys.list(scope, filters),
    queryFn: async ({ pageParam, signal }): Promise<ViolationsPage> => {
      const bounds = pageParam.bounds ?? resolveBounds(filters, Date.now());
      const page = await fetchViolationsPage(scope, filters, bounds, pageParam.after, signal);
      return { ...page, bounds };
    },
    initialPageParam: {} as PageParam,
    getNextPageParam: (last): PageParam | undefined =>
      last.has_next_page && last.end_cursor ? { after: last.end_cursor, bounds: last.bounds } : undefined,
    staleTime: 60_000,
  });

export interface EveryViolation {
  items: GuardrailViolation[];
  bounds: Bounds;
}

/** Every violation of the filters, within the bounds the list resolved (or fresh ones): the chart and the export. */
export function everyViolation(
  scope: ViolationScope,
  filters: ViolationFilters,
  bounds: Bounds,
  signal?: AbortSignal,
): Promise<GuardrailViolation[]> {
  return readAllPages((after, s) => fetchViolationsPage(scope, filters, bounds, after, s ?? signal), {
    maxItems: MAX_ALL_VIOLATIONS,
    maxPages: Math.ceil(MAX_ALL_VIOLATIONS / VIOLATIONS_PAGE_SIZE) + 1,
    signal,
    what: 'The violations list',
  });
}

export const everyViolationQueryOptions = (scope: ViolationScope, filters: ViolationFilters) =>
  queryOptions({
    queryKey: guardrailKeys.every(scope, filters),
    queryFn: async ({ signal }): Promise<EveryViolation> => {
      const bounds = resolveBounds(filters, Date.now());
      return { items: await everyViolation(scope, filters, bounds, signal), bounds };
    },
    staleTime: 60_000,
    retry: false,
  });

/** The guardrails (a sandbox extension): an upstream without it answers 404 and the screen uses the violations'. */
export const guardrailsQueryOptions = () =>
  queryOptions({
    queryKey: guardrailKeys.guardrails(),
    queryFn: ({ signal }): Promise<Guardrail[]> =>
      readAllPages((after, s) => apiCall('guardrails.list', { query: { first: 200, after }, signal: s ?? signal }), {
        maxPages: 20,
        signal,
        what: 'The guardrails list',
      }),
    staleTime: 5 * 60_000,
    retry: false,
  });

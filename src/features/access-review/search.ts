/**
 * The stale-access screen's URL state: `?days=` (unused for at least, 30 by default) and `?expiring=` (credential
 * expiring within, 14 by default). Without zod: route files read it at start.
 */
import { defineSearch, oneOf } from '@/lib/search-params';

export const UNUSED_DAYS = [30, 60, 90, 180] as const;
export const EXPIRING_DAYS = [7, 14, 30] as const;

export interface AccessReviewFilters {
  days: (typeof UNUSED_DAYS)[number];
  expiring: (typeof EXPIRING_DAYS)[number];
}

export const AccessReviewSearch = defineSearch({
  fields: { days: oneOf(['30', '60', '90', '180'] as const), expiring: oneOf(['7', '14', '30'] as const) },
});

export function filtersOf(search: { days?: string; expiring?: string }): AccessReviewFilters {
  return {
    days: Number(search.days ?? 30) as AccessReviewFilters['days'],
    expiring: Number(search.expiring ?? 14) as AccessReviewFilters['expiring'],
  };
}

/** Leaves the defaults out of the URL. */
export function searchOf(f: AccessReviewFilters): { days?: '60' | '90' | '180'; expiring?: '7' | '30' } {
  return {
    ...(f.days !== 30 ? { days: String(f.days) as '60' | '90' | '180' } : {}),
    ...(f.expiring !== 14 ? { expiring: String(f.expiring) as '7' | '30' } : {}),
  };
}

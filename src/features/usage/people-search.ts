/**
 * The URL state of the per-person consumption screen (`?kind=member` or `service_user`; all by default). Without
 * zod: route files read it at start, and the route tree is on the first screen.
 */
import { defineSearch, oneOf } from '@/lib/search-params';

export const PEOPLE_KINDS = ['all', 'member', 'service_user'] as const;
export type PeopleKind = (typeof PEOPLE_KINDS)[number];

export const PeopleSearch = defineSearch({ fields: { kind: oneOf(['member', 'service_user'] as const) } });

/**
 * Capacity: the session queue and the hypervisors. Spec: `GET /v3/enterprise/queue` (`ViewAccountMetrics`; the
 * indicator `normal`, `elevated` or `high` and the number of queued sessions) and `GET /v3/enterprise/hypervisors`
 * (`status` filter, default `available`, `all` returns every one; records carry `utilization_percentage`).
 * Shapes from api-facts (`{queue_size, status}`; `{hypervisor_id, status, utilization_percentage,
 * cloud_provider_instance_id, created_at, last_heartbeat}`).
 *
 * Permission of the hypervisors (not shown in the spec): `ViewAccountMetrics`, as for the queue beside it — both
 * answer "is the platform keeping up".
 */
import { z } from 'zod';
import { PageQuery, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';

export const QUEUE_STATUSES = ['normal', 'elevated', 'high'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

export const QueueState = z.looseObject({
  queue_size: z.number().int(),
  /** `normal`, `elevated` or `high`; kept open so another value shows as-is. */
  status: z.string(),
});
export type QueueState = z.infer<typeof QueueState>;

export const HYPERVISOR_STATUSES = ['available', 'restarting', 'disconnected', 'terminated', 'draining'] as const;
export type HypervisorStatus = (typeof HYPERVISOR_STATUSES)[number];
/** The `status` filter: one status, or `all`. */
export const HYPERVISOR_STATUS_FILTERS = [...HYPERVISOR_STATUSES, 'all'] as const;
export type HypervisorStatusFilter = (typeof HYPERVISOR_STATUS_FILTERS)[number];

export const Hypervisor = z.looseObject({
  hypervisor_id: z.string(),
  status: z.string(),
  utilization_percentage: z.number(),
  cloud_provider_instance_id: z.string().nullish(),
  created_at: UnixSeconds.nullish(),
  last_heartbeat: UnixSeconds.nullish(),
});
export type Hypervisor = z.infer<typeof Hypervisor>;

export const HypervisorsQuery = z.object({
  ...PageQuery.shape,
  status: z
    .enum(HYPERVISOR_STATUS_FILTERS, { message: `status must be one of ${HYPERVISOR_STATUS_FILTERS.join(', ')}` })
    .default('available'),
});
export type HypervisorsQuery = z.input<typeof HypervisorsQuery>;

export const capacityOperations = defineOperations({
  'queue.get': {
    id: 'queue.get',
    method: 'GET',
    path: '/v3/enterprise/queue',
    permission: 'ViewAccountMetrics',
    scope: 'enterprise',
    summary: 'The number of queued sessions and the queue indicator',
    response: QueueState,
    note: 'Queued: sessions in new, claimed or resuming. The sandbox sets the indicator from queued sessions per available hypervisor: under 2 normal, under 5 elevated, else high.',
  },
  'hypervisors.list': {
    id: 'hypervisors.list',
    method: 'GET',
    path: '/v3/enterprise/hypervisors',
    permission: 'ViewAccountMetrics',
    scope: 'enterprise',
    summary: 'The hypervisors with their utilization; status filter (default available, all for every one)',
    query: HypervisorsQuery,
    response: pageOf(Hypervisor),
    paginated: true,
    note: 'Permission not shown in the spec; ViewAccountMetrics chosen (as for the queue). 422 for an unknown status.',
  },
});

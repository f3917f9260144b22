/** The enterprise's limits: ACU limits per billing cycle (enterprise and organizations) and org group limits. */
import type { ReactNode } from 'react';
import { PageHeader } from '@/components/page-header';
import { AcuLimitsTable } from './acu-limits-table';
import { GroupLimitsSection } from './group-limits-form';

/** `history`: the history of these limits, composed by the route. */
export function LimitsScreen({ history }: { history?: ReactNode }) {
  return (
    <>
      <PageHeader
        title="Limits"
        description="How many ACUs the enterprise and each organization may use per billing cycle. A session stops when a limit it falls under is reached."
      />
      <section aria-labelledby="acu-limits-heading" className="flex flex-col gap-2">
        <h2 id="acu-limits-heading" className="text-base font-semibold">
          ACU limits per billing cycle
        </h2>
        <p className="text-sm text-muted">
          Edit a limit in place; clear the box to remove it. Per-session limits are set on the Organizations page.
        </p>
        <AcuLimitsTable />
      </section>
      <section aria-labelledby="group-limits-heading" className="mt-8 flex flex-col gap-2">
        <h2 id="group-limits-heading" className="text-base font-semibold">
          Org group limits
        </h2>
        <p className="text-sm text-muted">
          Named groups of organizations that share an ACU maximum per billing cycle. An organization belongs to at most
          one group.
        </p>
        <GroupLimitsSection />
      </section>
      {history && <div className="mt-8">{history}</div>}
    </>
  );
}

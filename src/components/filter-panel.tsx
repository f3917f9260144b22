/**
 * The boxed filter panel of the screens whose filters are several kinds of field in a row (toggle groups,
 * selects, a time range): a "Filters" region, boxed on a wide screen and stacked in the narrow sheet of
 * `FilterBar`.
 */
import type { ReactNode } from 'react';

export function FilterPanel({ narrow, children }: { narrow: boolean; children: ReactNode }) {
  return (
    <section
      aria-label="Filters"
      className={
        narrow
          ? 'flex flex-col gap-3'
          : 'mb-3 flex flex-wrap items-end gap-3 rounded-lg border border-line bg-surface p-3'
      }
    >
      {children}
    </section>
  );
}

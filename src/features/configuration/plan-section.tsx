/**
 * The Configuration screen's reviewed plan: its warnings, counts and changes, the values of the secrets it
 * creates (used once, never stored), and the button that asks to apply exactly this plan.
 */
import type { ConfigPlan } from '@/api/console/configuration';
import { DataTable } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { changeColumns } from './configuration-columns';

export function PlanSection({
  plan,
  values,
  onValues,
  onApply,
}: {
  plan: ConfigPlan;
  /** The secrets' values by environment variable name. */
  values: Record<string, string>;
  onValues: (values: Record<string, string>) => void;
  onApply: () => void;
}) {
  const { counts } = plan;
  return (
    <section aria-labelledby="plan-heading" className="flex flex-col gap-2">
      <h2 id="plan-heading" className="text-lg font-semibold">
        Plan
      </h2>
      {plan.warnings.map((w) => (
        <p key={w} className="text-warning text-sm">
          {w}
        </p>
      ))}
      <p className="text-sm" role="status">
        {plan.changes.length === 0
          ? 'No changes: live state matches the document.'
          : `${counts.create} to create, ${counts.update} to update, ${counts.delete} to delete${counts.destructive ? ` (${counts.destructive} destructive)` : ''}.`}
      </p>
      {plan.changes.length > 0 ? (
        <>
          <DataTable
            label="Planned changes"
            tableId="configuration-plan"
            columns={changeColumns}
            data={plan.changes}
            getRowId={(c) => c.id}
            empty={{ title: 'No changes' }}
          />
          {plan.secret_env.map((name) => (
            <label key={name} className="flex max-w-md flex-col gap-1 text-sm">
              Value of {name} (used once for the secret it creates, never stored)
              <Input
                type="password"
                autoComplete="off"
                value={values[name] ?? ''}
                onChange={(e) => onValues({ ...values, [name]: e.target.value })}
              />
            </label>
          ))}
          <div>
            <Button onClick={onApply} disabled={plan.secret_env.some((n) => !values[n])}>
              Apply this plan
            </Button>
          </div>
        </>
      ) : null}
    </section>
  );
}

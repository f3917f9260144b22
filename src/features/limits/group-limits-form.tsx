/**
 * Org group limits as a form of named groups: each group a name, an optional shared ACU maximum per billing
 * cycle and its organizations, picked from every organization of the enterprise. The picker never lets an
 * organization into two groups: one already in another group is disabled and says which group holds it.
 * Saving replaces the whole configuration. Without enablement by the account team, the API's 403 is shown as
 * what it is: the feature is not enabled.
 */
import { useQuery } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { get, useFieldArray, useFormContext, useFormState, useWatch } from 'react-hook-form';
import {
  ORG_GROUP_LIMITS,
  OrgGroupsForm,
  orgGroupsBodyOf,
  type OrgGroupsConfig,
} from '@/api/operations/org-group-limits';
import type { Organization } from '@/api/operations/organizations';
import { Form, NumberField, SubmitButton, TextField, useFormKit } from '@/components/form';
import { EmptyState, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { ApiError, isApiError } from '@/lib/api-error';
import { orgGroupLimitsQueryOptions } from '@/lib/enterprise-limits';
import { formatNumber } from '@/lib/format';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { allOrganizationsQueryOptions, useReplaceOrgGroups } from './api';

type Values = OrgGroupsForm;

export function formValuesOf(config: OrgGroupsConfig): Values {
  return {
    groups: Object.entries(config.groups).map(([name, g]) => ({
      name,
      org_ids: [...g.org_ids],
      max_cycle_acus: g.max_cycle_acus ?? undefined,
    })),
  };
}

/** The API names groups by name (`groups.<name>.org_ids.0`); the form by position (`groups.2.org_ids.0`). */
export function toFormLoc(loc: ReadonlyArray<string | number>, names: readonly string[]): Array<string | number> {
  const at = loc[0] === 'body' ? 1 : 0;
  if (loc[at] !== 'groups' || loc.length <= at + 1) return [...loc];
  const index = names.findIndex((n) => n.trim() === String(loc[at + 1]).trim());
  if (index < 0) return [...loc];
  const rest = loc.slice(at + 2);
  return [...loc.slice(0, at), 'groups', index, ...(rest.length > 0 ? rest : ['name'])];
}

export function isNotEnabled(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.status === 403 &&
    (error.problem as { reason?: unknown }).reason === 'org_group_limits_not_enabled'
  );
}

export function GroupLimitsSection() {
  const config = useQuery(orgGroupLimitsQueryOptions());
  const orgs = useQuery(allOrganizationsQueryOptions());
  if (config.error) {
    if (isNotEnabled(config.error)) {
      return (
        <div role="status" className="rounded-lg border border-line bg-surface-2 p-4 text-sm">
          <p className="font-semibold">Org group limits are not enabled for this enterprise</p>
          <p className="mt-1 text-muted">
            {isApiError(config.error) ? config.error.problem.detail : null} Ask your account team to enable them; the
            organizations&apos; own limits above still apply.
          </p>
        </div>
      );
    }
    return <ProblemView error={config.error} onRetry={() => void config.refetch()} />;
  }
  if (orgs.error) return <ProblemView error={orgs.error} onRetry={() => void orgs.refetch()} />;
  if (!config.data || !orgs.data) return <Spinner label="Loading the group limits…" />;
  return <GroupsForm saved={config.data} orgs={orgs.data} />;
}

function GroupsForm({ saved, orgs }: { saved: OrgGroupsConfig; orgs: Organization[] }) {
  const replace = useReplaceOrgGroups();
  const can = useHasPermission('ManageOrganizations');
  const defaults = useMemo(() => formValuesOf(saved), [saved]);
  return (
    <Form
      key={JSON.stringify(saved)}
      schema={OrgGroupsForm}
      defaultValues={defaults}
      aria-label="Org group limits"
      onSubmit={async (values, form) => {
        try {
          await replace.mutateAsync(orgGroupsBodyOf(values));
        } catch (e) {
          if (!isApiError(e) || e.fieldErrors.length === 0) throw e;
          const names = values.groups.map((g) => g.name);
          const errors = e.fieldErrors.map((fe) => ({ ...fe, loc: toFormLoc(fe.loc, names) }));
          throw new ApiError(e.status, { ...e.problem, errors }, e.retryAfter, e.operationId);
        }
        form.reset(values);
        toast({ title: 'Org group limits saved', tone: 'success' });
      }}
      actions={
        <div className="flex flex-wrap items-center gap-2">
          <SubmitButton
            pendingLabel="Saving…"
            disabled={can === false}
            title={missingPermissionTitle('ManageOrganizations', can)}
          >
            Save group limits
          </SubmitButton>
          <span className="text-xs text-muted">Saving replaces the whole configuration.</span>
        </div>
      }
    >
      <Groups orgs={orgs} />
    </Form>
  );
}

function Groups({ orgs }: { orgs: Organization[] }) {
  const { control } = useFormContext<Values>();
  const { fields, append, remove } = useFieldArray({ control, name: 'groups' });
  return (
    <div className="flex flex-col gap-4">
      {fields.length === 0 && <EmptyState title="No groups yet">Add one to share an ACU maximum.</EmptyState>}
      {fields.map((f, i) => (
        <GroupCard key={f.id} index={i} orgs={orgs} onRemove={() => remove(i)} />
      ))}
      <div>
        <Button
          disabled={fields.length >= ORG_GROUP_LIMITS.groups}
          onClick={() => append({ name: '', org_ids: [], max_cycle_acus: undefined })}
        >
          <Plus className="size-4" aria-hidden /> Add group
        </Button>
        <span className="ml-2 text-xs text-muted">
          {formatNumber(fields.length)} / {formatNumber(ORG_GROUP_LIMITS.groups)} groups
        </span>
      </div>
    </div>
  );
}

function GroupCard({ index, orgs, onRemove }: { index: number; orgs: Organization[]; onRemove: () => void }) {
  const name = useWatch<Values, `groups.${number}.name`>({ name: `groups.${index}.name` });
  const shown = name?.trim() || `Group ${index + 1}`;
  return (
    <section aria-label={`Group ${shown}`} className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-4">
      <div className="grid grid-cols-1 items-start gap-4 sm:grid-cols-[1fr_14rem_auto]">
        <TextField name={`groups.${index}.name`} label="Group name" required />
        <NumberField
          name={`groups.${index}.max_cycle_acus`}
          label="Shared ACU maximum per cycle"
          description="Whole ACUs; empty: no maximum."
          min={0}
          step={1}
          placeholder="No maximum"
        />
        <Button variant="ghost" className="text-danger sm:mt-6" aria-label={`Remove group ${shown}`} onClick={onRemove}>
          <Trash2 className="size-4" aria-hidden /> Remove
        </Button>
      </div>
      <OrgPicker index={index} groupName={shown} orgs={orgs} />
    </section>
  );
}

/** The organizations of one group: a filterable checklist where organizations of other groups are disabled. */
function OrgPicker({ index, groupName, orgs }: { index: number; groupName: string; orgs: Organization[] }) {
  const { setValue, control } = useFormContext<Values>();
  const kit = useFormKit();
  // Errors of the group's organizations (the API's too) land here, not on the form-level alert.
  useEffect(() => kit.registerField(`groups.${index}.org_ids`, { secret: false }), [kit, index]);
  const groups = useWatch({ control, name: 'groups' });
  const { errors } = useFormState({ control, name: `groups.${index}.org_ids` });
  const [filter, setFilter] = useState('');
  const legendId = useId();
  const errorId = useId();
  const chosen: string[] = groups?.[index]?.org_ids ?? [];
  const inOther = useMemo(() => {
    const m = new Map<string, string>();
    (groups ?? []).forEach((g, i) => {
      if (i === index) return;
      for (const id of g?.org_ids ?? []) m.set(id, g?.name?.trim() || `Group ${i + 1}`);
    });
    return m;
  }, [groups, index]);
  const needle = filter.trim().toLowerCase();
  const listed = needle ? orgs.filter((o) => `${o.name} ${o.org_id}`.toLowerCase().includes(needle)) : orgs;
  const error = get(errors, `groups.${index}.org_ids`) as unknown;
  const message = errorMessageOf(error);
  const name = (id: string) => orgs.find((o) => o.org_id === id)?.name ?? id;

  const toggle = (orgId: string, on: boolean) => {
    // The picker itself refuses an organization of another group; the schema would too.
    if (on && inOther.has(orgId)) return;
    const next = on ? [...chosen, orgId] : chosen.filter((x) => x !== orgId);
    setValue(`groups.${index}.org_ids`, next, { shouldDirty: true, shouldValidate: true });
  };

  return (
    <fieldset aria-labelledby={legendId} aria-describedby={message ? errorId : undefined} className="min-w-0">
      <legend id={legendId} className="text-sm font-medium">
        Organizations of {groupName}{' '}
        <span className="font-normal text-muted">({formatNumber(chosen.length)} chosen)</span>
      </legend>
      {chosen.length > 0 && <p className="mt-1 text-xs text-muted">{chosen.map(name).join(', ')}</p>}
      <Input
        type="search"
        className="mt-2 w-full sm:w-72"
        placeholder="Filter organizations"
        aria-label={`Filter organizations for ${groupName}`}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      <ul className="mt-2 grid max-h-56 grid-cols-1 gap-x-4 overflow-y-auto rounded-md border border-line p-2 sm:grid-cols-2">
        {listed.map((o) => {
          const other = inOther.get(o.org_id);
          const id = `${legendId}-${o.org_id}`;
          return (
            <li key={o.org_id} className="flex items-start gap-2 py-1 text-sm">
              <Checkbox
                id={id}
                checked={chosen.includes(o.org_id)}
                disabled={other !== undefined}
                aria-describedby={other !== undefined ? `${id}-other` : undefined}
                onCheckedChange={(c) => toggle(o.org_id, c === true)}
              />
              <label htmlFor={id} className={other !== undefined ? 'text-muted' : undefined}>
                {o.name}
                {other !== undefined && (
                  <span id={`${id}-other`} className="block text-xs">
                    already in group “{other}”
                  </span>
                )}
              </label>
            </li>
          );
        })}
        {listed.length === 0 && <li className="text-sm text-muted">No organization matches the filter.</li>}
      </ul>
      {message && (
        <p id={errorId} role="alert" className="mt-1 text-xs font-medium text-danger">
          {message}
        </p>
      )}
    </fieldset>
  );
}

function errorMessageOf(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { message?: unknown };
  if (typeof e.message === 'string' && e.message) return e.message;
  for (const v of Object.values(error)) {
    const m = errorMessageOf(v);
    if (m) return m;
  }
  return undefined;
}

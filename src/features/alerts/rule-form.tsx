/**
 * Defining an alert rule: what it watches (the kind), where (an organization or all of them), its threshold in
 * the kind's own terms, and the webhooks it delivers to besides the notification list — over the contract's
 * schema (`AlertRuleBody`), with its documented limits in each field's description.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import {
  ALERT_KIND_LABELS,
  ALERT_LIMITS,
  ALERT_RULE_KINDS,
  AlertRuleBody,
  STUCK_STATUSES,
  WATCHED_SETTING_LABELS,
  WATCHED_SETTINGS,
  type AlertRuleKind,
} from '@/api/console/alerts';
import { ComboboxField, Form, NumberField, SelectField, SubmitButton, TextField } from '@/components/form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { formatNumber } from '@/lib/format';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { useCreateRule, webhooksQueryOptions } from './api';
import { CheckboxGroupField } from './checkbox-group-field';

interface RuleValues {
  name: string;
  kind: AlertRuleKind;
  /** '' = the whole enterprise / every organization. */
  org_id: string;
  threshold_percent?: number;
  consumption_mode: 'reached' | 'forecast';
  violations_per_day?: number;
  duration_minutes?: number;
  session_statuses: Array<(typeof STUCK_STATUSES)[number]>;
  settings: Array<(typeof WATCHED_SETTINGS)[number]>;
  destination_ids: string[];
}

const EMPTY: RuleValues = {
  name: '',
  kind: 'consumption',
  org_id: '',
  threshold_percent: 80,
  consumption_mode: 'reached',
  violations_per_day: 10,
  duration_minutes: 60,
  session_statuses: ['error', 'suspended'],
  settings: ['ip_access_list', 'git_permissions', 'roles'],
  destination_ids: [],
};

/** The body of what the chosen kind uses; the rest stays out. */
function toBody(v: RuleValues): AlertRuleBody {
  const org = v.org_id === '' ? null : v.org_id;
  const base = { name: v.name, kind: v.kind, destination_ids: v.destination_ids };
  switch (v.kind) {
    case 'consumption':
      return {
        ...base,
        org_id: org,
        threshold_percent: v.threshold_percent ?? null,
        consumption_mode: v.consumption_mode,
      };
    case 'guardrail_violations':
      return { ...base, org_id: org, violations_per_day: v.violations_per_day ?? null };
    case 'session_stuck':
      return {
        ...base,
        org_id: org,
        duration_minutes: v.duration_minutes ?? null,
        session_statuses: v.session_statuses,
      };
    case 'schedule_failed':
      return { ...base, org_id: org };
    case 'settings_changed':
      return { ...base, settings: v.settings };
    default:
      return base;
  }
}

function KindFields({ orgOptions }: { orgOptions: Array<{ value: string; label: string }> }) {
  const kind = (useWatch({ name: 'kind' }) as AlertRuleKind | undefined) ?? 'consumption';
  const orgField = (allLabel: string) => (
    <ComboboxField
      name="org_id"
      label="Organization"
      required={false}
      searchLabel="Search organizations"
      description={`${allLabel}, or one organization.`}
      options={[{ value: '', label: allLabel }, ...orgOptions]}
    />
  );
  switch (kind) {
    case 'consumption':
      return (
        <>
          {orgField('The whole enterprise')}
          <NumberField
            name="threshold_percent"
            label="Share of the limit (%)"
            min={ALERT_LIMITS.thresholdPercent.min}
            max={ALERT_LIMITS.thresholdPercent.max}
            description={`Of the cycle's ACU limit (the enterprise's, or the organization's), ${ALERT_LIMITS.thresholdPercent.min} to ${formatNumber(ALERT_LIMITS.thresholdPercent.max)} %. Without a limit the rule stays quiet.`}
          />
          <SelectField
            name="consumption_mode"
            label="Fires when"
            options={[
              { value: 'reached', label: 'The cycle to date crosses it' },
              { value: 'forecast', label: "The forecast to the cycle's end crosses it" },
            ]}
            description="The forecast is the usage screen's: the last 7 complete days' rate to the cycle's end."
          />
        </>
      );
    case 'guardrail_violations':
      return (
        <>
          {orgField('Any organization')}
          <NumberField
            name="violations_per_day"
            label="Violations a day, more than"
            min={ALERT_LIMITS.violationsPerDay.min}
            max={ALERT_LIMITS.violationsPerDay.max}
            description={`Fires when an organization has more than this many in one billing day (from 08:00 UTC); 0 to ${formatNumber(ALERT_LIMITS.violationsPerDay.max)}.`}
          />
        </>
      );
    case 'session_stuck':
      return (
        <>
          {orgField('Any organization')}
          <CheckboxGroupField
            name="session_statuses"
            label="Status"
            options={STUCK_STATUSES.map((s) => ({ value: s, label: s === 'error' ? 'Error' : 'Suspended' }))}
          />
          <NumberField
            name="duration_minutes"
            label="Longer than (minutes)"
            min={ALERT_LIMITS.durationMinutes.min}
            max={ALERT_LIMITS.durationMinutes.max}
            description={`${ALERT_LIMITS.durationMinutes.min} to ${formatNumber(ALERT_LIMITS.durationMinutes.max)} minutes (30 days), counted from the session's last update.`}
          />
        </>
      );
    case 'schedule_failed':
      return orgField('Any organization');
    case 'settings_changed':
      return (
        <CheckboxGroupField
          name="settings"
          label="Changes to"
          description="Read from the audit log: changes made anywhere, not only through this console."
          options={WATCHED_SETTINGS.map((s) => ({ value: s, label: WATCHED_SETTING_LABELS[s] }))}
        />
      );
    default:
      return (
        <p className="text-sm text-muted">
          Fires for each operation the doctor's last run finds refused that the run before allowed. Operations refused
          when the rule is made are its starting point.
        </p>
      );
  }
}

export function NewRuleButton() {
  const [open, setOpen] = useState(false);
  const create = useCreateRule();
  const orgs = useInfiniteQuery({ ...organizationsInfiniteQueryOptions(), enabled: open });
  const hooks = useQuery({ ...webhooksQueryOptions(), enabled: open });
  const orgOptions = useMemo(
    () =>
      (orgs.data?.pages ?? [])
        .flatMap((p) => p.items)
        .map((o) => ({ value: o.org_id, label: o.name }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [orgs.data],
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) create.reset();
      }}
    >
      <Button variant="primary" onClick={() => setOpen(true)}>
        <Plus className="size-4" aria-hidden /> New rule
      </Button>
      <DialogContent className="w-[min(94vw,38rem)]">
        <DialogTitle>New alert rule</DialogTitle>
        <DialogDescription>
          The console checks it every minute (CONSOLE_ALERTS_INTERVAL_S) and tells the notification list and the chosen
          webhooks when it starts and when it stops.
        </DialogDescription>
        {open && (
          <Form
            schema={AlertRuleBody}
            defaultValues={EMPTY}
            toBody={toBody}
            aria-label="New alert rule"
            className="mt-4"
            onSubmit={async (body) => {
              const rule = await create.mutateAsync(body);
              toast({ title: `Rule ${rule.name} created`, tone: 'success' });
              setOpen(false);
            }}
            actions={
              <div className="flex justify-end gap-2">
                <DialogClose asChild>
                  <Button>Cancel</Button>
                </DialogClose>
                <SubmitButton pendingLabel="Creating…">Create rule</SubmitButton>
              </div>
            }
          >
            <TextField name="name" label="Name" description={`1 to ${ALERT_LIMITS.name} characters.`} />
            <SelectField
              name="kind"
              label="Watches"
              options={ALERT_RULE_KINDS.map((k) => ({ value: k, label: ALERT_KIND_LABELS[k] }))}
            />
            <KindFields orgOptions={orgOptions} />
            {(hooks.data?.items.length ?? 0) > 0 ? (
              <CheckboxGroupField
                name="destination_ids"
                label="Webhooks"
                description={`Besides the notification list; at most ${ALERT_LIMITS.destinationsPerRule}.`}
                options={(hooks.data?.items ?? []).map((h) => ({ value: h.destination_id, label: h.name }))}
              />
            ) : (
              <p className="text-xs text-muted">
                No webhooks yet: this rule tells the notification list only. Add webhooks under Webhooks.
              </p>
            )}
          </Form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * Create or edit a schedule, over the contract's create body (and, in the form only, the rule the contract
 * cannot check without a clock: a one-time date ahead). The cron field explains itself as it is typed — in
 * words, or why it is refused — and lists its next five runs in local time and UTC.
 *
 * The vendor's create request has no `enabled` (a service that ignores unknown fields would create the schedule
 * enabled), so a new schedule is created without it and, when the admin asked for a disabled one, disabled at
 * once with an update: it reads disabled as soon as the form is done. Should that update fail, the schedule's
 * page says that it exists and is enabled, with a button to disable it.
 */
import { useNavigate } from '@tanstack/react-router';
import { useFormContext, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { cronProblem } from '@/api/cron';
import { CreateScheduleBody, NOTIFY_ON, scheduledAtPastMessage, type Schedule } from '@/api/operations/schedules';
import {
  ComboboxField,
  DateTimeField,
  Form,
  SelectField,
  SubmitButton,
  SwitchField,
  TagsField,
  TextareaField,
  TextField,
} from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { Button, buttonClass } from '@/components/ui/button';
import { formatDateTime, formatUtc } from '@/lib/format';
import { Link } from '@tanstack/react-router';
import { isoSeconds, leaveScheduleNotice, useCreateSchedule, useUpdateSchedule } from './api';
import { describeFrequency, nextRuns } from './cron';
import { NOTIFY_LABELS } from './schedule-parts';

export interface ScheduleFormValues {
  name: string;
  prompt: string;
  schedule_type: 'recurring' | 'one_time';
  frequency: string;
  /** Unix seconds (the date-time field's value). */
  scheduled_at: number | null | undefined;
  enabled: boolean;
  notify_on: (typeof NOTIFY_ON)[number];
  /** `''`: no playbook. */
  playbook_id: string;
  tags: string[];
}

export interface PlaybookOption {
  value: string;
  label: string;
}

/**
 * The body of the form's values: the fields of the other type left out, empty optional ones as null. `enabled`
 * is in it for an update; a create leaves it out (see the module comment).
 */
export function toScheduleBody(v: ScheduleFormValues): z.input<typeof CreateScheduleBody> {
  const oneTime = v.schedule_type === 'one_time';
  return {
    name: v.name.trim(),
    prompt: v.prompt,
    schedule_type: v.schedule_type,
    ...(oneTime
      ? {
          // No date yet: null, which the contract refuses with its own message (Run at is required).
          scheduled_at: typeof v.scheduled_at === 'number' ? new Date(v.scheduled_at * 1000).toISOString() : null,
        }
      : { frequency: v.frequency.trim() }),
    enabled: v.enabled,
    notify_on: v.notify_on,
    playbook_id: v.playbook_id || null,
    tags: v.tags.length ? v.tags : null,
  };
}

/** The contract's body, plus what only a clock can say: a one-time date must be ahead. */
const ScheduleFormSchema = CreateScheduleBody.superRefine((v, ctx) => {
  if (v.schedule_type === 'one_time' && v.scheduled_at && Date.parse(v.scheduled_at) <= Date.now()) {
    ctx.addIssue({ code: 'custom', path: ['scheduled_at'], message: scheduledAtPastMessage(new Date().toISOString()) });
  }
});

const PRESETS = [
  ['Every weekday at 09:00', '0 9 * * 1-5'],
  ['Every day at 02:00', '0 2 * * *'],
  ['Every hour', '0 * * * *'],
  ['Every Monday at 06:30', '30 6 * * 1'],
  ['Every 15 minutes', '*/15 * * * *'],
] as const;

/** The frequency in words as it is typed, or why it is refused, and its next five runs. */
function FrequencyHelp() {
  const { control, setValue } = useFormContext<ScheduleFormValues>();
  const frequency = useWatch({ control, name: 'frequency' }) ?? '';
  const problem = frequency.trim() ? cronProblem(frequency) : null;
  const words = frequency.trim() && !problem ? describeFrequency(frequency) : null;
  const runs = words ? nextRuns(frequency, 5) : [];
  return (
    <div className="flex flex-col gap-2 text-sm">
      <div className="flex flex-wrap gap-1.5" role="group" aria-label="Common frequencies">
        {PRESETS.map(([label, expr]) => (
          <Button
            key={expr}
            size="sm"
            variant="ghost"
            onClick={() => setValue('frequency', expr, { shouldValidate: true, shouldDirty: true })}
          >
            {label}
          </Button>
        ))}
      </div>
      <div aria-live="polite" className="rounded-md border border-line bg-surface-2 p-3">
        {!frequency.trim() ? (
          <p className="text-muted">Type a cron expression, or pick one above.</p>
        ) : problem ? (
          <p className="text-muted">Not a valid frequency yet: {problem}.</p>
        ) : runs.length === 0 ? (
          <p className="text-danger">{words}: this never matches a date.</p>
        ) : (
          <>
            <p className="font-medium" data-testid="frequency-words">
              {words}
            </p>
            <table className="mt-2 w-full text-left text-xs">
              <caption className="sr-only">The next five runs</caption>
              <thead className="text-muted">
                <tr>
                  <th scope="col" className="py-1 font-medium">
                    Next runs (your time)
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    UTC
                  </th>
                </tr>
              </thead>
              <tbody>
                {runs.map((d) => {
                  const s = Math.floor(d.getTime() / 1000);
                  return (
                    <tr key={s}>
                      <td className="py-0.5">{formatDateTime(s)}</td>
                      <td className="py-0.5 font-mono">{formatUtc(s)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </>
        )}
      </div>
    </div>
  );
}

function TimingFields() {
  const type = useWatch<ScheduleFormValues, 'schedule_type'>({ name: 'schedule_type' });
  return type === 'one_time' ? (
    <DateTimeField
      name="scheduled_at"
      label="Run at"
      description="Your local time; the UTC time is shown beside it. It must be in the future."
      required
    />
  ) : (
    <div className="flex flex-col gap-2">
      <TextField
        name="frequency"
        label="Frequency"
        description="Five fields in UTC: minute hour day-of-month month day-of-week, e.g. 0 9 * * 1-5."
        placeholder="0 9 * * 1-5"
        autoComplete="off"
        inputClassName="font-mono"
        required
        countWhenEmpty={false}
      />
      <FrequencyHelp />
    </div>
  );
}

/** The form's first values: the schedule's own, or a new recurring one that notifies on failure. */
function scheduleDefaults(schedule: Schedule | undefined): ScheduleFormValues {
  return {
    name: schedule?.name ?? '',
    prompt: schedule?.prompt ?? '',
    schedule_type: schedule?.schedule_type ?? 'recurring',
    frequency: schedule?.frequency ?? '',
    scheduled_at: isoSeconds(schedule?.scheduled_at) ?? undefined,
    enabled: schedule?.enabled ?? true,
    notify_on: (NOTIFY_ON as readonly string[]).includes(schedule?.notify_on ?? '')
      ? (schedule!.notify_on as ScheduleFormValues['notify_on'])
      : 'failure',
    playbook_id: schedule?.playbook?.playbook_id ?? '',
    tags: schedule?.tags ?? [],
  };
}

/** Saves the body (an update; or a create, then a disable when asked for: see the module comment), then opens it. */
function useSaveSchedule(orgId: string, schedule: Schedule | undefined) {
  const navigate = useNavigate();
  const create = useCreateSchedule(orgId);
  const update = useUpdateSchedule(orgId);
  return async (body: z.input<typeof CreateScheduleBody>) => {
    let saved: Schedule;
    if (schedule) {
      saved = await update.mutateAsync({ scheduleId: schedule.scheduled_session_id, body });
    } else {
      const { enabled, ...createBody } = body;
      saved = await create.mutateAsync(createBody);
      if (enabled === false && saved.enabled) {
        try {
          saved = await update.mutateAsync({
            scheduleId: saved.scheduled_session_id,
            body: { enabled: false },
          });
        } catch (error) {
          // It exists, enabled: its page says so and offers to disable it (not the form: a resubmit would
          // create a second one).
          leaveScheduleNotice(saved.scheduled_session_id, { kind: 'disable-failed', error });
        }
      }
    }
    await navigate({
      to: '/orgs/$orgId/schedules/$scheduleId',
      params: { orgId, scheduleId: saved.scheduled_session_id },
    });
  };
}

/** The playbook to follow: one of the playbooks (the schedule's own kept when not among them), or typed as an id. */
function PlaybookField({
  schedule,
  playbookOptions,
}: {
  schedule: Schedule | undefined;
  playbookOptions: readonly PlaybookOption[] | undefined;
}) {
  const playbookId = schedule?.playbook?.playbook_id ?? '';
  if (!playbookOptions)
    return (
      <TextField
        name="playbook_id"
        label="Playbook"
        description="Optional playbook id each session follows."
        placeholder="playbook-…"
        countWhenEmpty={false}
      />
    );
  const options = [
    { value: '', label: 'No playbook' },
    ...playbookOptions,
    ...(playbookId && !playbookOptions.some((o) => o.value === playbookId)
      ? [{ value: playbookId, label: schedule?.playbook?.title ?? playbookId }]
      : []),
  ];
  return (
    <ComboboxField
      name="playbook_id"
      label="Playbook"
      description="Optional: the procedure each session follows."
      searchLabel="Search playbooks"
      placeholder="No playbook"
      options={options}
    />
  );
}

/** Cancel (back to the schedule, or to the list for a new one) and the submit button. */
function ScheduleFormActions({ orgId, schedule }: { orgId: string; schedule: Schedule | undefined }) {
  return (
    <div className="flex justify-end gap-2">
      {schedule ? (
        <Link
          to="/orgs/$orgId/schedules/$scheduleId"
          params={{ orgId, scheduleId: schedule.scheduled_session_id }}
          className={buttonClass()}
        >
          Cancel
        </Link>
      ) : (
        <Link to="/orgs/$orgId/schedules" params={{ orgId }} className={buttonClass()}>
          Cancel
        </Link>
      )}
      <SubmitButton pendingLabel="Saving…">{schedule ? 'Save changes' : 'Create schedule'}</SubmitButton>
    </div>
  );
}

export function ScheduleForm({
  orgId,
  schedule,
  playbookOptions,
}: {
  orgId: string;
  schedule?: Schedule;
  /** The playbooks to choose among; without them the playbook is typed as an id. */
  playbookOptions?: readonly PlaybookOption[];
}) {
  const save = useSaveSchedule(orgId, schedule);
  const title = schedule ? `Edit “${schedule.name}”` : 'New schedule';

  return (
    <div className="max-w-3xl">
      <PageHeader
        title={title}
        documentTitle={schedule ? `Edit ${schedule.name}` : title}
        description="Each run starts a session with this prompt (and playbook and tags), attributed to the schedule."
      />
      <Form
        schema={ScheduleFormSchema}
        defaultValues={scheduleDefaults(schedule)}
        toBody={toScheduleBody}
        onSubmit={save}
        aria-label={title}
        className="rounded-lg border border-line bg-surface p-4"
        actions={<ScheduleFormActions orgId={orgId} schedule={schedule} />}
      >
        <TextField name="name" label="Name" autoComplete="off" />
        <TextareaField
          name="prompt"
          label="Prompt"
          description="What the agent should do on each run."
          textareaClassName="min-h-28"
        />
        <SelectField
          name="schedule_type"
          label="Runs"
          options={[
            { value: 'recurring', label: 'On a recurring schedule (cron, UTC)' },
            { value: 'one_time', label: 'Once, at a set time' },
          ]}
        />
        <TimingFields />
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <PlaybookField schedule={schedule} playbookOptions={playbookOptions} />
          <SelectField
            name="notify_on"
            label="Notify"
            options={(['failure', 'always', 'never'] as const).map((value) => ({
              value,
              label: NOTIFY_LABELS[value],
            }))}
          />
        </div>
        <TagsField
          name="tags"
          label="Tags"
          placeholder="nightly, triage"
          description="Given to each session it starts."
        />
        <SwitchField
          name="enabled"
          label="Enabled"
          description={(on) => (on ? 'It runs at its next time.' : 'It does not run until it is enabled.')}
        />
      </Form>
    </div>
  );
}

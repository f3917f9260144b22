/**
 * Adding rows to the bulk editor: a repository picker that searches the chosen connection's repositories by
 * name, or a group / path prefix typed in. It is a form-kit form over the contract's own bulk-add request
 * (one item), so what is typed is checked with the contract's rules, on the field, before it is added.
 */
import { useQuery } from '@tanstack/react-query';
import { Breakable } from '@/components/breakable';
import { useId, useState } from 'react';
import { useFormContext, useWatch, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import {
  gitPermissionKey,
  type GitConnection,
  type GitPermissionInput,
  type MatcherField,
} from '@/api/git-permissions/resources';
import { GitPermissionBulkCreateRequest, validateGitPermissionSet } from '@/api/git-permissions/rules';
import { normalizeGitPermission } from '@/api/git-permissions/set-diff';
import { Badge } from '@/components/badge';
import { CheckboxField, Form, SelectField, SubmitButton, TextField } from '@/components/form';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useDebounced } from '@/lib/debounce';
import { gitRepositoriesQueryOptions } from './api';
import { PROVIDER_LABELS } from './shared';

type AddValues = z.input<typeof GitPermissionBulkCreateRequest>;

const CONNECTION = 'permissions.0.git_connection_id';
const READ_ONLY = 'permissions.0.read_only';
const matcherName = (field: MatcherField) => `permissions.0.${field}` as const;

const MODES: Array<{ field: MatcherField; label: string; hint: string; placeholder: string }> = [
  {
    field: 'repo_path',
    label: 'Repository',
    hint: 'Search the connection’s repositories by name.',
    placeholder: 'Search repositories',
  },
  {
    field: 'group_prefix',
    label: 'Group',
    hint: 'Every repository of a group and its subgroups, e.g. acme/platform (no trailing /).',
    placeholder: 'acme/platform',
  },
  {
    field: 'prefix_path',
    label: 'Path prefix',
    hint: 'Every repository whose path starts with this, e.g. acme/platform/api-',
    placeholder: 'acme/platform/',
  },
];

/** What is typed is sent without the spaces around it. */
function toBody(values: AddValues): AddValues {
  return {
    permissions: values.permissions.map((p) => ({
      ...p,
      repo_path: p.repo_path?.trim(),
      prefix_path: p.prefix_path?.trim(),
      group_prefix: p.group_prefix?.trim(),
    })),
  };
}

export function AddPermissions({
  connections,
  existingKeys,
  onAdd,
}: {
  connections: readonly GitConnection[];
  existingKeys: ReadonlySet<string>;
  onAdd: (items: GitPermissionInput[]) => void;
}) {
  const [mode, setMode] = useState<MatcherField>('repo_path');
  const current = MODES.find((m) => m.field === mode)!;
  const connectionOptions = connections.map((c) => ({
    value: c.git_connection_id,
    label: `${c.name ?? c.host} — ${PROVIDER_LABELS[c.git_provider_type] ?? c.git_provider_type}`,
  }));

  const defaultValues: AddValues = {
    permissions: [
      {
        git_connection_id: connections[0]?.git_connection_id ?? '',
        repo_path: '',
        prefix_path: '',
        group_prefix: '',
        read_only: false,
      },
    ],
  };
  const submit = (body: AddValues, form: UseFormReturn<AddValues>) => {
    const item = normalizeGitPermission(body.permissions[0]!);
    if (existingKeys.has(gitPermissionKey(item))) {
      form.setError(matcherName(mode), { type: 'duplicate', message: 'This permission is already in the draft' });
      return;
    }
    onAdd([item]);
    form.setValue(matcherName(mode), '');
  };

  return (
    <section aria-label="Add permissions" className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-3">
      <h2 className="text-sm font-semibold">Add permissions</h2>
      <Form
        schema={GitPermissionBulkCreateRequest}
        defaultValues={defaultValues}
        toBody={toBody}
        onSubmit={submit}
        className="gap-3"
      >
        {(form) => (
          <>
            <div className="flex flex-wrap items-end gap-3">
              <SelectField
                name={CONNECTION}
                label="Connection"
                options={connectionOptions}
                className="w-64 max-w-full"
              />
              <fieldset className="flex flex-col gap-1">
                <legend className="mb-1 text-sm font-medium">Match by</legend>
                <div className="flex gap-1" role="radiogroup" aria-label="Match by">
                  {MODES.map((m) => (
                    <label
                      key={m.field}
                      className={`cursor-pointer rounded-md border px-2.5 py-1.5 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent ${mode === m.field ? 'border-accent bg-accent/10 text-accent' : 'border-line'}`}
                    >
                      <input
                        type="radio"
                        className="sr-only"
                        name="add-mode"
                        checked={mode === m.field}
                        onChange={() => {
                          // What was typed for a group carries over to a path prefix, and back.
                          const typed = mode === 'repo_path' ? '' : (form.getValues(matcherName(mode)) ?? '');
                          form.clearErrors();
                          form.setValue(matcherName(mode), '');
                          if (m.field !== 'repo_path') form.setValue(matcherName(m.field), typed);
                          setMode(m.field);
                        }}
                      />
                      {m.label}
                    </label>
                  ))}
                </div>
              </fieldset>
              <CheckboxField name={READ_ONLY} label="Add as read-only" className="h-9 items-center" />
            </div>
            {mode === 'repo_path' ? (
              <RepositoryPicker hint={current.hint} existingKeys={existingKeys} onAdd={onAdd} />
            ) : (
              <div className="flex flex-wrap items-start gap-2">
                <TextField
                  key={mode}
                  name={matcherName(mode)}
                  label={current.label}
                  description={current.hint}
                  placeholder={current.placeholder}
                  countWhenEmpty={false}
                  autoComplete="off"
                  className="w-96 max-w-full"
                />
                <AddButton field={mode} label={`Add ${current.label.toLowerCase()}`} />
              </div>
            )}
          </>
        )}
      </Form>
    </section>
  );
}

/** Adds what is typed; nothing to add while the box is empty (so Enter in it does nothing either). */
function AddButton({ field, label }: { field: MatcherField; label: string }) {
  const typed = useWatch<AddValues>({ name: matcherName(field) });
  return (
    <SubmitButton className="mt-6" disabled={typeof typed !== 'string' || typed.trim() === ''}>
      {label}
    </SubmitButton>
  );
}

function RepositoryPicker({
  hint,
  existingKeys,
  onAdd,
}: {
  hint: string;
  existingKeys: ReadonlySet<string>;
  onAdd: (items: GitPermissionInput[]) => void;
}) {
  const { control } = useFormContext<AddValues>();
  const connection = useWatch({ control, name: CONNECTION });
  const readOnly = useWatch({ control, name: READ_ONLY }) === true;
  const [search, setSearch] = useState('');
  const [error, setError] = useState<string | null>(null);
  const searchId = useId();
  const hintId = useId();
  const debounced = useDebounced(search.trim(), 250);
  const repos = useQuery(gitRepositoriesQueryOptions(connection, debounced));

  const add = (item: GitPermissionInput) => {
    const errors = validateGitPermissionSet([item], { loc: [] });
    if (errors.length) return setError(errors.map((e) => e.msg).join('; '));
    if (existingKeys.has(gitPermissionKey(item))) return setError('This permission is already in the draft');
    setError(null);
    onAdd([item]);
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-col gap-1">
        <label htmlFor={searchId} className="text-sm font-medium">
          Search repositories
        </label>
        <Input
          id={searchId}
          type="search"
          aria-describedby={hintId}
          placeholder="Search repositories"
          value={search}
          maxLength={200}
          onChange={(e) => setSearch(e.target.value)}
          // A search box, not the form's submit: Enter must not send the form.
          onKeyDown={(e) => {
            if (e.key === 'Enter') e.preventDefault();
          }}
        />
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      </div>
      {repos.error ? (
        <ProblemView compact error={repos.error} onRetry={() => void repos.refetch()} />
      ) : (
        <ul
          aria-label="Repositories"
          className="max-h-44 divide-y divide-line/60 overflow-auto rounded-md border border-line"
        >
          {repos.isPending && <li className="px-3 py-2 text-sm text-muted">Searching…</li>}
          {repos.data?.items.length === 0 && (
            <li className="px-3 py-2 text-sm text-muted">No repository matches “{debounced}”.</li>
          )}
          {repos.data?.items.map((r) => {
            const item = { git_connection_id: r.git_connection_id, repo_path: r.repo_path, read_only: readOnly };
            const already = existingKeys.has(gitPermissionKey(item));
            return (
              <li
                key={r.provider_repository_id}
                className="flex items-center justify-between gap-2 px-3 py-1.5 text-sm"
              >
                <span className="min-w-0">
                  <Breakable className="font-mono text-xs" text={r.repo_path} />
                  {r.repo_language ? <span className="ml-2 text-xs text-muted">{r.repo_language}</span> : null}
                </span>
                {already ? (
                  <Badge>In draft</Badge>
                ) : (
                  <Button size="sm" aria-label={`Add ${r.repo_path}`} onClick={() => add(item)}>
                    Add
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {repos.data?.has_next_page ? (
        <p className="text-xs text-muted">
          Showing the first {repos.data.items.length} matches{repos.data.total ? ` of ${repos.data.total}` : ''}; type
          more of the name to narrow.
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

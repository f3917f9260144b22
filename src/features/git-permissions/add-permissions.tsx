/**
 * Adding rows to the bulk editor: a repository picker that searches the chosen connection's repositories by
 * name, or a group / path prefix typed in. What is added is checked with the contract's rules first.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  gitPermissionKey,
  type GitConnection,
  type GitPermissionInput,
  type MatcherField,
} from '@/api/git-permissions/resources';
import { validateGitPermissionSet } from '@/api/git-permissions/rules';
import { Badge } from '@/components/badge';
import { Button } from '@/components/ui/button';
import { Field, inputClass } from '@/components/field';
import { ProblemView } from '@/components/problem-view';
import { gitRepositoriesQueryOptions } from './api';
import { PROVIDER_LABELS } from './shared';

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

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

export function AddPermissions({
  connections,
  existingKeys,
  onAdd,
}: {
  connections: readonly GitConnection[];
  existingKeys: ReadonlySet<string>;
  onAdd: (items: GitPermissionInput[]) => void;
}) {
  const [connectionId, setConnectionId] = useState('');
  const [mode, setMode] = useState<MatcherField>('repo_path');
  const [search, setSearch] = useState('');
  const [text, setText] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const debounced = useDebounced(search.trim(), 250);
  const connection = connectionId || connections[0]?.git_connection_id || '';
  const repos = useQuery({
    ...gitRepositoriesQueryOptions(connection, debounced),
    enabled: connection !== '' && mode === 'repo_path',
  });

  const add = (item: GitPermissionInput) => {
    const errors = validateGitPermissionSet([item], { loc: [] });
    if (errors.length) {
      setError(errors.map((e) => e.msg).join('; '));
      return false;
    }
    if (existingKeys.has(gitPermissionKey(item))) {
      setError('This permission is already in the draft');
      return false;
    }
    setError(null);
    onAdd([item]);
    return true;
  };

  const current = MODES.find((m) => m.field === mode)!;
  return (
    <section aria-label="Add permissions" className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-3">
      <h2 className="text-sm font-semibold">Add permissions</h2>
      <div className="flex flex-wrap items-end gap-3">
        <Field label="Connection" className="w-64 max-w-full">
          <select className={inputClass} value={connection} onChange={(e) => setConnectionId(e.target.value)}>
            {connections.map((c) => (
              <option key={c.git_connection_id} value={c.git_connection_id}>
                {c.name ?? c.host} — {PROVIDER_LABELS[c.git_provider_type] ?? c.git_provider_type}
              </option>
            ))}
          </select>
        </Field>
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium">Match by</legend>
          <div className="flex gap-1" role="radiogroup" aria-label="Match by">
            {MODES.map((m) => (
              <label
                key={m.field}
                className={`cursor-pointer rounded-md border px-2.5 py-1.5 text-sm ${mode === m.field ? 'border-accent bg-accent/10 text-accent' : 'border-line'}`}
              >
                <input
                  type="radio"
                  className="sr-only"
                  name="add-mode"
                  checked={mode === m.field}
                  onChange={() => {
                    setMode(m.field);
                    setError(null);
                  }}
                />
                {m.label}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="flex h-9 items-center gap-2 text-sm">
          <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} /> Add as read-only
        </label>
      </div>
      {mode === 'repo_path' ? (
        <div className="flex flex-col gap-2">
          <Field label="Search repositories" hint={current.hint}>
            <input
              className={inputClass}
              type="search"
              placeholder={current.placeholder}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              maxLength={200}
            />
          </Field>
          {repos.error ? (
            <ProblemView compact error={repos.error} onRetry={() => void repos.refetch()} />
          ) : (
            <ul
              role="listbox"
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
                    role="option"
                    aria-selected={already}
                    className="flex items-center justify-between gap-2 px-3 py-1.5 text-sm"
                  >
                    <span className="min-w-0">
                      <span className="font-mono text-xs break-all">{r.repo_path}</span>
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
              Showing the first {repos.data.items.length} matches{repos.data.total ? ` of ${repos.data.total}` : ''};
              type more of the name to narrow.
            </p>
          ) : null}
        </div>
      ) : (
        <form
          className="flex flex-wrap items-start gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (add({ git_connection_id: connection, [mode]: text.trim(), read_only: readOnly })) setText('');
          }}
        >
          <Field label={current.label} hint={current.hint} error={error ?? undefined} className="w-96 max-w-full">
            <input
              className={inputClass}
              placeholder={current.placeholder}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setError(null);
              }}
            />
          </Field>
          <Button type="submit" variant="primary" className="mt-6">
            Add {current.label.toLowerCase()}
          </Button>
        </form>
      )}
      {mode === 'repo_path' && error ? (
        <p role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
    </section>
  );
}

// @vitest-environment jsdom
/**
 * The sessions list's bulk actions follow the person's console roles and the credential: with ManageOrgSessions
 * in every selected session's organization they are offered; refused in one of them, Archive, Terminate and
 * Add tag are disabled and the toolbar says why, naming the organization.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleSession } from '@/api/console/session';
import type { Session } from '@/api/operations/sessions';
import { consoleSessionQueryOptions } from '@/lib/console-session';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { selfQueryOptions } from '@/lib/principal';
import { BulkActions } from './bulk-actions';

const session = (id: string, org: string): Session => ({
  session_id: id,
  url: `https://x/${id}`,
  status: 'running',
  title: `Session ${id}`,
  org_id: org,
  created_at: 1_700_000_000,
  updated_at: 1_700_000_000,
  tags: [],
  acus_consumed: 0,
  pull_requests: [],
  is_archived: false,
});

function renderWith(permissions: ConsoleSession['permissions'], selected: Session[], credential?: string[]) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(consoleSessionQueryOptions().queryKey, {
    signed_in: true,
    method: 'oidc',
    name: 'Dana',
    expires_at: null,
    idle_expires_at: null,
    roles: [{ role: 'operator', grant: 'email dana@example.com → operator' }],
    permissions,
  } as ConsoleSession);
  client.setQueryData(selfQueryOptions().queryKey, {
    principal_type: 'service_user',
    permissions: credential ?? ['ManageOrgSessions', 'ViewOrgSessions'],
  });
  client.setQueryData(organizationsInfiniteQueryOptions().queryKey, {
    pages: [
      {
        items: [
          { org_id: 'org-a', name: 'Acme Labs' },
          { org_id: 'org-b', name: 'Bravo Retail' },
        ],
        end_cursor: null,
        has_next_page: false,
      },
    ],
    pageParams: [undefined],
  });
  return render(
    <QueryClientProvider client={client}>
      <BulkActions selected={selected} onDone={() => undefined} />
    </QueryClientProvider>,
  );
}

const buttons = () => ['Archive…', 'Terminate…', 'Add tag…'].map((name) => screen.getByRole('button', { name }));

afterEach(cleanup);

describe('sessions bulk actions', () => {
  it('offers the actions when the roles allow ManageOrgSessions in every selected organization', () => {
    renderWith({ ManageOrgSessions: ['org-a', 'org-b'] }, [session('s1', 'org-a'), session('s2', 'org-b')]);
    for (const b of buttons()) expect(b).toBeEnabled();
    expect(screen.queryByText(/console's policy refuses/)).toBeNull();
  });

  it('disables them, saying why and where, when one selected organization is refused', () => {
    renderWith({ ManageOrgSessions: ['org-a'] }, [session('s1', 'org-a'), session('s2', 'org-b')]);
    const reason =
      "Your console role does not allow ManageOrgSessions in the organization Bravo Retail, where selected sessions are (the console's policy refuses it)";
    expect(screen.getByText(reason)).toBeTruthy();
    for (const b of buttons()) {
      expect(b).toBeDisabled();
      expect(b).toHaveAttribute('title', reason);
      expect(b).toHaveAccessibleDescription(reason);
    }
    expect(screen.getByRole('button', { name: 'Clear selection' })).toBeEnabled();
  });

  it('disables them when the credential lacks the permission', () => {
    renderWith({ ManageOrgSessions: '*' }, [session('s1', 'org-a')], ['ViewOrgSessions']);
    for (const b of buttons()) expect(b).toHaveAttribute('title', expect.stringMatching(/credential does not hold/));
    expect(buttons()[0]).toBeDisabled();
  });
});

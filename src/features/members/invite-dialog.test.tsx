// @vitest-environment jsdom
/**
 * The bulk invitation as an admin meets it: the paste is counted against the limit while typed, repeats and
 * malformed addresses are flagged before anything is sent, nothing is sent while one is malformed or the
 * limit is crossed, and addresses the API refuses (already members) are listed by address.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@/api/operations/members';
import { roleKeys } from './api';
import { InviteButton } from './invite-dialog';

beforeAll(() => {
  Element.prototype.scrollIntoView ??= () => {};
  Element.prototype.hasPointerCapture ??= () => false;
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
});

const ROLES: Role[] = [
  { role_id: 'role-admin', role_name: 'Admin', role_type: 'enterprise', permissions: ['A', 'B', 'C'] },
  { role_id: 'role-member', role_name: 'Member', role_type: 'enterprise', permissions: ['A'] },
  { role_id: 'role-org', role_name: 'Org role', role_type: 'org', permissions: [] },
];

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

async function openDialog() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(roleKeys.lists(), ROLES);
  const user = userEvent.setup();
  render(
    <QueryClientProvider client={qc}>
      <InviteButton />
    </QueryClientProvider>,
  );
  await user.click(screen.getByRole('button', { name: 'Invite members' }));
  const dialog = await screen.findByRole('dialog', { name: 'Invite members' });
  const box = within(dialog).getByRole('textbox', { name: /Email addresses/ });
  return { user, dialog, box };
}

describe('bulk invitation dialog', () => {
  it('counts, flags repeats and malformed addresses, and sends nothing while one is malformed', async () => {
    const { user, dialog, box } = await openDialog();
    // The role with the fewest permissions is chosen by default; organization roles are not offered.
    expect(within(dialog).getByRole('combobox', { name: /Enterprise role/ })).toHaveTextContent('Member');
    await user.click(box);
    await user.paste('ada@example.com\nADA@example.com, bob@example.com\nnot-an-address');
    expect(within(dialog).getByText('3 / 100 addresses')).toBeInTheDocument();
    const preview = within(dialog).getByTestId('invite-preview');
    expect(preview).toHaveTextContent('2 valid addresses · 1 repeated (sent once) · 1 malformed');
    expect(within(preview).getByText(/Malformed/)).toBeInTheDocument();
    expect(preview).toHaveTextContent('Line 3: not-an-address — not a valid email address');
    expect(preview).toHaveTextContent('Line 2: ADA@example.com — repeats line 1');

    await user.click(within(dialog).getByRole('button', { name: 'Send invitations' }));
    // The field says why (the preview says which line), and focus goes to it.
    await waitFor(() => expect(box).toHaveAttribute('aria-invalid', 'true'));
    expect(
      within(dialog)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toContain('not a valid email address');
    expect(box).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses 101 addresses before sending, with the count over the limit', async () => {
    const { user, dialog, box } = await openDialog();
    await user.click(box);
    await user.paste(Array.from({ length: 101 }, (_, i) => `person${i}@example.com`).join('\n'));
    const count = within(dialog).getByText('101 / 100 addresses');
    expect(count).toHaveAttribute('data-over', 'true');
    expect(
      await within(dialog).findByText('At most 100 invitations per call; this request has 101'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Send invitations' }));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends each address once with the role, and lists by address those the API refuses', async () => {
    const { user, dialog, box } = await openDialog();
    fetchMock.mockResolvedValueOnce(
      json(422, {
        type: 'about:blank',
        status: 422,
        title: 'Unprocessable Entity',
        detail: 'The request is not valid',
        errors: [
          {
            loc: ['body', 'emails', 1],
            msg: 'bob@example.com is already a member of the enterprise (user-1)',
            type: 'already_member',
          },
        ],
      }),
    );
    await user.click(box);
    await user.paste('ada@example.com\nBob@example.com\nada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitations' }));

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v3/enterprise/members/users');
    expect(JSON.parse(String(init?.body))).toEqual({
      emails: ['ada@example.com', 'bob@example.com'],
      enterprise_role_id: 'role-member',
    });
    const preview = within(dialog).getByTestId('invite-preview');
    expect(await within(preview).findByText(/Refused by the API/)).toBeInTheDocument();
    expect(
      within(dialog)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toContain('1 address was refused (listed below); nobody was invited');
    expect(preview).toHaveTextContent('Line 2: Bob@example.com — bob@example.com is already a member');
    // The dialog stays open with what was typed: nothing was invited.
    expect(box).toHaveValue('ada@example.com\nBob@example.com\nada@example.com');
  });
});

// @vitest-environment jsdom
/**
 * The shared confirm-and-delete action as an admin meets it: a failure stays inside the open confirmation with
 * the item still listed, a retry that succeeds closes it, clears the failure and says so in a toast.
 */
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { ConfirmDelete, DeleteButton } from './delete-action';
import { Toaster } from './ui/toast';

afterEach(cleanup);

interface Item {
  id: string;
  name: string;
}

function Screen({ fail }: { fail: { current: boolean } }) {
  const [items, setItems] = useState<Item[]>([{ id: 'w-1', name: 'Pager' }]);
  const [deleting, setDeleting] = useState<Item | null>(null);
  const remove = useMutation({
    mutationFn: async (id: string) => {
      if (fail.current)
        throw new ApiError(409, { type: 'about:blank', title: 'Conflict', status: 409, detail: 'In use by a rule.' });
      setItems((all) => all.filter((i) => i.id !== id));
    },
  });
  return (
    <>
      {items.map((i) => (
        <DeleteButton key={i.id} label={`Delete webhook ${i.name}`} onClick={() => setDeleting(i)} />
      ))}
      <ConfirmDelete
        target={deleting}
        onClose={() => setDeleting(null)}
        mutation={remove}
        variables={(i) => i.id}
        title={`Delete webhook ${deleting?.name ?? ''}?`}
        description="Rules stop delivering to it."
        confirmLabel="Delete webhook"
        toastTitle={(i) => `Webhook ${i.name} deleted`}
      />
      <Toaster />
    </>
  );
}

describe('ConfirmDelete', () => {
  it('shows a failure inside the confirmation, and on success closes, lists the item no more and toasts', async () => {
    const user = userEvent.setup();
    const fail = { current: true };
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
        <Screen fail={fail} />
      </QueryClientProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Delete webhook Pager' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete webhook Pager?' });
    await user.click(screen.getByRole('button', { name: 'Delete webhook' }));
    expect(await screen.findByText(/In use by a rule/)).toBeTruthy();
    expect(dialog.isConnected).toBe(true);

    fail.current = false;
    await user.click(screen.getByRole('button', { name: 'Delete webhook' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.queryByRole('button', { name: 'Delete webhook Pager' })).toBeNull();
    expect(await screen.findByText('Webhook Pager deleted')).toBeTruthy();
  });
});

// @vitest-environment jsdom
/**
 * The primitives as a user meets them: class conflicts resolved in favour of the caller, a toast's Undo
 * firing, a checkbox's third state, a confirmation returning focus to its opener, and a select's "no value".
 */
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cn } from '@/lib/cn';
import { Button } from './button';
import { Checkbox } from './checkbox';
import { ConfirmDialog } from './confirm-dialog';
import { Select } from './select';
import { toast, Toaster } from './toast';

beforeAll(() => {
  // jsdom lacks what Radix Select uses for pointer handling and scrolling the chosen option into view.
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
});
afterEach(cleanup);

describe('cn', () => {
  it('lets the last of two conflicting Tailwind classes win', () => {
    expect(cn('h-9 px-3.5', 'h-7')).toBe('px-3.5 h-7');
    expect(cn('text-sm text-fg', false, null, undefined, 'text-accent')).toBe('text-sm text-accent');
  });

  it('reads the theme’s colour tokens as colours, not as sizes', () => {
    expect(cn('bg-surface', 'bg-surface-2')).toBe('bg-surface-2');
    expect(cn('border border-line', 'border-accent')).toBe('border border-accent');
    expect(cn('hover:bg-accent-strong', 'hover:bg-surface-2')).toBe('hover:bg-surface-2');
    expect(cn('text-xs text-muted')).toBe('text-xs text-muted');
    expect(cn('bg-accent disabled:bg-accent/50', 'bg-danger')).toBe('disabled:bg-accent/50 bg-danger');
  });

  it('gives a caller’s className the last word on a primitive', () => {
    render(<Button className="h-12 bg-danger">Go</Button>);
    const cls = screen.getByRole('button', { name: 'Go' }).className.split(' ');
    expect(cls).toContain('h-12');
    expect(cls).not.toContain('h-9');
    expect(cls).toContain('bg-danger');
    expect(cls).not.toContain('bg-surface');
  });
});

describe('toast', () => {
  it('shows a toast whose Undo action runs and closes it', async () => {
    const user = userEvent.setup();
    const undo = vi.fn();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Note deleted', description: 'Idempotency keys', action: { label: 'Undo', onClick: undo } });
    });
    const status = await screen.findByText('Note deleted');
    const item = status.closest('li')!;
    expect(within(item).getByText('Idempotency keys')).toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(screen.queryByText('Note deleted')).not.toBeInTheDocument());
  });

  it('closes a toast from the function toast() returns', async () => {
    render(<Toaster />);
    let close = () => {};
    act(() => {
      close = toast({ title: 'Saved' });
    });
    expect(await screen.findByText('Saved')).toBeInTheDocument();
    act(() => close());
    await vi.waitFor(() => expect(screen.queryByText('Saved')).not.toBeInTheDocument());
  });
});

describe('Checkbox', () => {
  it('reports the indeterminate state as aria-checked="mixed" and toggles by keyboard', async () => {
    const user = userEvent.setup();
    function Demo() {
      const [checked, setChecked] = useState<boolean | 'indeterminate'>('indeterminate');
      return <Checkbox aria-label="Select all" checked={checked} onCheckedChange={setChecked} />;
    }
    render(<Demo />);
    const box = screen.getByRole('checkbox', { name: 'Select all' });
    expect(box).toHaveAttribute('aria-checked', 'mixed');
    box.focus();
    await user.keyboard(' ');
    expect(box).toHaveAttribute('aria-checked', 'true');
  });
});

describe('ConfirmDialog', () => {
  it('opens as an alertdialog with Cancel focused, and returns focus to the button that opened it', async () => {
    const user = userEvent.setup();
    function Demo() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <Button onClick={() => setOpen(true)}>Delete</Button>
          <ConfirmDialog
            open={open}
            onOpenChange={setOpen}
            title="Delete it?"
            description="This cannot be undone."
            confirmLabel="Delete for good"
            destructive
            onConfirm={() => setOpen(false)}
          />
        </>
      );
    }
    render(<Demo />);
    const opener = screen.getByRole('button', { name: 'Delete' });
    await user.click(opener);
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete it?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(opener).toHaveFocus();
  });

  it('keeps a type-to-confirm action disabled with the reason in words until the word is typed', async () => {
    const user = userEvent.setup();
    render(
      <ConfirmDialog
        open
        onOpenChange={() => {}}
        title="Clear it?"
        description="Everything goes."
        confirmLabel="Clear the list"
        typeToConfirm="Acme Corp"
        onConfirm={() => {}}
      />,
    );
    const action = await screen.findByRole('button', { name: 'Clear the list' });
    expect(action).toBeDisabled();
    expect(action).toHaveAccessibleDescription('“Clear the list” is enabled once Acme Corp is typed exactly.');
    await user.click(screen.getByRole('textbox', { name: 'Type Acme Corp to confirm' }));
    await user.paste('Acme Corp');
    expect(action).toBeEnabled();
    expect(screen.queryByText(/is enabled once/)).toBeNull();
  });
});

describe('Select', () => {
  it('offers a "no value" option and hands back an empty string for it', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    function Demo() {
      const [value, setValue] = useState('fast');
      return (
        <Select
          aria-label="Agent mode"
          value={value}
          onValueChange={(v) => {
            onChange(v);
            setValue(v);
          }}
          options={[
            { value: '', label: 'Organization default' },
            { value: 'fast', label: 'fast' },
          ]}
        />
      );
    }
    render(<Demo />);
    const trigger = screen.getByRole('combobox', { name: 'Agent mode' });
    expect(trigger).toHaveTextContent('fast');
    await user.click(trigger);
    await user.click(await screen.findByRole('option', { name: 'Organization default' }));
    expect(onChange).toHaveBeenLastCalledWith('');
    expect(trigger).toHaveTextContent('Organization default');
  });
});

/**
 * The editor's rows: one range per row, each checked as it is typed (its error, its normalization note, the
 * row it repeats or the row whose range contains it, under the input), normalized when left; a paste of
 * several entries into a row becomes several rows; a box takes a whole pasted list at once.
 */
import { ClipboardPaste, Plus, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type Dispatch } from 'react';
import { IP_ACCESS_LIST_LIMITS } from '@/api/operations/ip-access-list';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import type { EditorAction, EditorState } from './editor-state';
import { splitRanges, type RowCheck } from './ranges';

export function RangeRows({
  state,
  checks,
  dispatch,
  protectedBy,
}: {
  state: EditorState;
  checks: readonly RowCheck[];
  dispatch: Dispatch<EditorAction>;
  /** Row index → the console's addresses only that row admits (shown, so removing it is a conscious act). */
  protectedBy: ReadonlyMap<number, string[]>;
}) {
  const list = useRef<HTMLOListElement>(null);
  // Focus follows the last action: the new row, or the neighbour of a removed one.
  useEffect(() => {
    if (state.focus === null) return;
    list.current?.querySelector<HTMLInputElement>(`[data-row-id="${state.focus}"]`)?.focus();
  }, [state.focus, state.rows]);
  const rowNumber = (i: number) => i + 1;
  return (
    <div className="flex flex-col gap-3">
      {state.rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line p-4 text-sm text-muted">
          No ranges: the list is empty, so requests from every address are accepted. Add a range to restrict access.
        </p>
      ) : (
        <ol ref={list} aria-label="Ranges" className="flex flex-col gap-2">
          {state.rows.map((row, i) => {
            const check = checks[i] ?? { state: 'empty' };
            const messageId = `ip-row-${row.id}-message`;
            const message = rowMessage(check, row.note, protectedBy.get(i), state.rows, rowNumber);
            return (
              <li key={row.id} className="flex flex-col gap-1">
                <div className="flex items-center gap-2">
                  <span className="w-8 shrink-0 text-right font-mono text-xs text-muted" aria-hidden>
                    {rowNumber(i)}
                  </span>
                  <Input
                    data-row-id={row.id}
                    aria-label={`Range ${rowNumber(i)}`}
                    aria-invalid={check.state === 'invalid' || undefined}
                    aria-describedby={message ? messageId : undefined}
                    value={row.text}
                    maxLength={IP_ACCESS_LIST_LIMITS.entryLength * 4}
                    spellCheck={false}
                    autoComplete="off"
                    placeholder="203.0.113.0/24 or 2001:db8::/32"
                    className="min-w-0 flex-1 font-mono text-sm"
                    onChange={(e) => dispatch({ type: 'changed', id: row.id, text: e.target.value })}
                    onBlur={() => dispatch({ type: 'left', id: row.id })}
                    onPaste={(e) => {
                      const text = e.clipboardData.getData('text');
                      if (splitRanges(text).length < 2) return;
                      e.preventDefault();
                      dispatch({ type: 'pasted', id: row.id, text });
                    }}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') {
                        e.preventDefault();
                        dispatch({ type: 'added', texts: [''], after: row.id });
                      }
                    }}
                  />
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Remove range ${rowNumber(i)}${row.text.trim() ? ` (${row.text.trim()})` : ''}`}
                    onClick={() => dispatch({ type: 'removed', id: row.id })}
                  >
                    <Trash2 className="size-4" aria-hidden />
                  </Button>
                </div>
                {message && (
                  <p
                    id={messageId}
                    className={cn(
                      'ml-10 text-xs',
                      message.tone === 'danger' && 'text-danger',
                      message.tone === 'warn' && 'text-warn',
                      message.tone === 'muted' && 'text-muted',
                    )}
                  >
                    {message.text}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => dispatch({ type: 'added', texts: [''] })}>
          <Plus className="size-4" aria-hidden /> Add a range
        </Button>
        <PasteMany onAdd={(texts) => dispatch({ type: 'added', texts })} />
      </div>
    </div>
  );
}

interface RowMessage {
  tone: 'danger' | 'warn' | 'muted';
  text: string;
}

function rowMessage(
  check: RowCheck,
  note: string | undefined,
  protects: string[] | undefined,
  rows: EditorState['rows'],
  rowNumber: (i: number) => number,
): RowMessage | null {
  const textOf = (i: number) => rows[i]?.text.trim() ?? '';
  if (check.state === 'invalid') return { tone: 'danger', text: check.error ?? 'Not a valid address or range' };
  if (check.state === 'kept' && check.duplicateOf === undefined) {
    return {
      tone: 'warn',
      text: `Kept as loaded: the console cannot read this entry, so it sends it back unchanged (${check.error ?? 'not an address or CIDR range it knows'}). Edit or remove it to change it.`,
    };
  }
  if (check.duplicateOf !== undefined) {
    return {
      tone: 'warn',
      text: `Repeats row ${rowNumber(check.duplicateOf)} (${textOf(check.duplicateOf)}): the same range is kept once`,
    };
  }
  if (check.containedIn !== undefined) {
    return {
      tone: 'warn',
      text: `Inside row ${rowNumber(check.containedIn)} (${textOf(check.containedIn)}): this range adds nothing`,
    };
  }
  const parts = [note, protects?.length ? `Admits the console’s own address ${protects.join(', ')}` : undefined];
  const text = parts.filter(Boolean).join(' · ');
  return text ? { tone: 'muted', text } : null;
}

/** A box for a whole list at once: split on new lines, commas, semicolons and spaces. */
function PasteMany({ onAdd }: { onAdd: (texts: string[]) => void }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const id = useId();
  const count = splitRanges(text).length;
  if (!open) {
    return (
      <Button onClick={() => setOpen(true)} aria-expanded={false}>
        <ClipboardPaste className="size-4" aria-hidden /> Paste many
      </Button>
    );
  }
  return (
    <div className="flex w-full flex-col gap-2 rounded-lg border border-line bg-surface p-3">
      <label htmlFor={id} className="text-sm font-medium">
        Ranges to add
      </label>
      <p className="text-xs text-muted" id={`${id}-hint`}>
        One or many per line, separated by new lines, commas or spaces. Each becomes a row, checked like the others.
      </p>
      <Textarea
        id={id}
        autoFocus
        aria-describedby={`${id}-hint`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={5}
        spellCheck={false}
        className="font-mono text-xs"
        placeholder={'10.0.0.0/8\n192.168.1.0/24, 2001:db8::/32'}
      />
      <div className="flex justify-end gap-2">
        <Button
          onClick={() => {
            setOpen(false);
            setText('');
          }}
        >
          Cancel
        </Button>
        <Button
          variant="primary"
          disabled={count === 0}
          onClick={() => {
            onAdd(splitRanges(text));
            setOpen(false);
            setText('');
          }}
        >
          Add {count > 0 ? formatNumber(count) : ''} {count === 1 ? 'range' : 'ranges'}
        </Button>
      </div>
    </div>
  );
}

/**
 * Who made a change recorded in a history (`made_by` of a revision): the signed-in person's name, or — when
 * no person is known — how the change was made (a one-time link without a name, the access token from a
 * script, access control off), set apart in muted italics so it never reads as a person's name. Revisions
 * recorded before the console knew who made them show "unknown".
 */
import type { MadeBy } from '@/api/console/session';
import { cn } from '@/lib/cn';

/** The text a history shows for `made_by` (also for exports and accessible names). */
export function madeByText(r: MadeBy): string {
  return r.made_by ?? 'unknown';
}

export function MadeByText({ revision, className }: { revision: MadeBy; className?: string }) {
  const person = revision.made_by_kind === 'person' && revision.made_by !== null;
  return (
    <span
      className={cn('break-words', person ? 'font-medium text-fg' : 'text-muted italic', className)}
      title={
        person
          ? 'The person signed in when the change was made'
          : revision.made_by === null
            ? 'Recorded before the console knew who made each change'
            : 'No person was known: how the change was made'
      }
    >
      {madeByText(revision)}
    </span>
  );
}

/**
 * Text that may wrap only at its natural joints: after each `/` of a path, each `,` of a list, each `.` or `-`
 * of a name. A word break (<wbr>) follows every joint; a segment longer than the line still wraps (as a last
 * resort) rather than running past the edge.
 */
import { Fragment } from 'react';
import { cn } from '@/lib/cn';

const JOINT = /([/,.\-:@])/;

export function Breakable({ text, className }: { text: string; className?: string }) {
  const parts = text.split(JOINT);
  return (
    <span className={cn('wrap-break-word', className)}>
      {parts.map((part, i) =>
        JOINT.test(part) ? (
          <Fragment key={i}>
            {part}
            <wbr />
          </Fragment>
        ) : (
          part
        ),
      )}
    </span>
  );
}

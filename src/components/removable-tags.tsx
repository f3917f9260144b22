/**
 * A list of tags as badges, each with its own remove button named for the tag ("Remove tag bug"), and a line
 * that stands in for the list when it is empty: the session's tags and an organization's allowed tags.
 */
import { X } from 'lucide-react';
import { Badge } from './badge';

export function RemovableTags({
  label,
  tags,
  empty,
  removeLabel,
  onRemove,
  disabled,
  title,
}: {
  /** The list's accessible name. */
  label: string;
  tags: readonly string[];
  /** Said in place of the tags when there are none. */
  empty: string;
  /** The accessible name of a tag's remove button. */
  removeLabel: (tag: string) => string;
  onRemove: (tag: string) => void;
  disabled: boolean;
  /** Why removing is not possible, when it is not. */
  title?: string;
}) {
  return (
    <ul aria-label={label} className="flex flex-wrap gap-1.5">
      {tags.length === 0 && <li className="text-sm text-muted">{empty}</li>}
      {tags.map((t) => (
        <li key={t}>
          <Badge>
            {t}
            <button
              type="button"
              aria-label={removeLabel(t)}
              title={title}
              disabled={disabled}
              className="rounded-full hover:text-danger disabled:opacity-50"
              onClick={() => onRemove(t)}
            >
              <X className="size-3" aria-hidden />
            </button>
          </Badge>
        </li>
      ))}
    </ul>
  );
}

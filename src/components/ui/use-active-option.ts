/**
 * The keyboard of a search box over a listbox (combobox pattern, `aria-activedescendant`): ArrowUp/ArrowDown
 * move the active option, PageUp/PageDown by a page, Ctrl+Home/Ctrl+End to the ends, Enter chooses it, and
 * the active option is scrolled into view. Options carry `data-index` and `id={optionId(i)}`.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';

export function useActiveOption<T>(
  items: readonly T[],
  { open = true, page = 10, onChoose }: { open?: boolean; page?: number; onChoose: (item: T) => void },
) {
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);
  const listId = useId();
  const activeIndex = Math.min(active, Math.max(0, items.length - 1));

  useEffect(() => {
    if (!open) return;
    listRef.current?.querySelector(`[data-index="${activeIndex}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [open, activeIndex]);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const last = items.length - 1;
    if (e.key === 'ArrowDown') setActive(Math.min(activeIndex + 1, last));
    else if (e.key === 'ArrowUp') setActive(Math.max(activeIndex - 1, 0));
    else if (e.key === 'PageDown') setActive(Math.min(activeIndex + page, last));
    else if (e.key === 'PageUp') setActive(Math.max(activeIndex - page, 0));
    else if (e.key === 'Home' && e.ctrlKey) setActive(0);
    else if (e.key === 'End' && e.ctrlKey) setActive(Math.max(last, 0));
    else if (e.key === 'Enter') {
      const item = items[activeIndex];
      if (item !== undefined) onChoose(item);
    } else return;
    e.preventDefault();
  };

  return {
    activeIndex,
    setActive,
    onKeyDown,
    listRef,
    listId,
    optionId: (i: number) => `${listId}-option-${i}`,
    /** The input's `aria-activedescendant`. */
    activeDescendant: items.length ? `${listId}-option-${activeIndex}` : undefined,
  };
}

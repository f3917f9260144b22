/** Debouncing, for every screen: a value after a pause, and a text input that follows the URL. */
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';

/**
 * A text input's value that follows the URL, and reports edits after a pause in typing. An edit still
 * pending when the user leaves the screen (a click on a row's link while the list is still searching) is
 * dropped: committing it would navigate back to the list, over the page the user chose.
 */
export function useDebouncedInput(value: string, onCommit: (v: string) => void, delayMs = 300) {
  const [text, setText] = useState(value);
  const router = useRouter({ warn: false }) as ReturnType<typeof useRouter> | undefined;
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(
    () =>
      router?.subscribe('onBeforeNavigate', (e) => {
        if (e.pathChanged) clearTimeout(pending.current);
      }),
    [router],
  );
  const commit = useRef(onCommit);
  useEffect(() => {
    commit.current = onCommit;
  });
  const lastCommitted = useRef(value);
  // The URL changed under us (back button, a link): show what it says.
  useEffect(() => {
    if (value !== lastCommitted.current) {
      lastCommitted.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text === lastCommitted.current) return;
    const t = setTimeout(() => {
      lastCommitted.current = text;
      commit.current(text);
    }, delayMs);
    pending.current = t;
    return () => clearTimeout(t);
  }, [text, delayMs]);
  return [text, setText] as const;
}

/** `value`, once it has stayed the same for `ms` (e.g. a search text, before it is sent). */
export function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Debouncing, for every screen: a value after a pause, and a text input that follows the URL. */
import { useEffect, useRef, useState } from 'react';

/** A text input's value that follows the URL, and reports edits after a pause in typing. */
export function useDebouncedInput(value: string, onCommit: (v: string) => void, delayMs = 300) {
  const [text, setText] = useState(value);
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

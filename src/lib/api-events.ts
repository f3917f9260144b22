/** App-wide signals from the API client: a 401 (credential problem) and 429 waits, for the global notices. */
export interface RateLimitWait {
  operationId: string;
  /** Epoch ms when the retry happens. */
  until: number;
}

type Listener<T> = (value: T) => void;

function createSignal<T>(initial: T) {
  let value = initial;
  const listeners = new Set<Listener<T>>();
  return {
    get: () => value,
    set(next: T) {
      value = next;
      listeners.forEach((l) => l(next));
    },
    subscribe(l: Listener<T>) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}

/** The last 401 detail, or null once a call succeeds again. */
export const unauthorizedSignal = createSignal<string | null>(null);
/** Calls currently waiting out a 429. */
export const rateLimitSignal = createSignal<RateLimitWait[]>([]);
/** True while the console server (or the upstream) cannot be reached. */
export const offlineSignal = createSignal<boolean>(false);

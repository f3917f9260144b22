/**
 * Fair sharing of the proxy's upstream connections between clients. At most `total` calls run at once, and
 * at most `perClient` of them for one client (a sign-in session, or an address), so one client's hanging
 * calls cannot take every connection. Calls beyond a client's share wait in that client's own queue; when a
 * connection frees up, the queues are served in turn (round robin), so a client with many waiting calls
 * does not delay another's next call by more than one turn. Each queue is bounded: past it, a call is
 * refused at once rather than held.
 */
export interface FairGate {
  /** Resolves with a release function once the call may run; rejects with GateFull when the client's queue is full. */
  acquire(client: string, signal?: AbortSignal): Promise<() => void>;
  /**
   * The same without a promise or a signal per call (the proxy's path): `onGrant` runs at once when the call
   * may run now, or when its turn comes. Answers a function that withdraws a waiting call (nothing once it
   * ran), or false when the client's queue is full.
   */
  enter(client: string, onGrant: (release: () => void) => void): (() => void) | false;
  stats(): { running: number; waiting: number; clients: number };
}

export class GateFull extends Error {
  constructor() {
    super('Too many calls from this client are waiting for the API');
  }
}

interface Waiter {
  grant: (release: () => void) => void;
}

interface ClientState {
  running: number;
  queue: Waiter[];
}

export function createFairGate(opts: { total: number; perClient: number; maxQueuedPerClient?: number }): FairGate {
  const total = Math.max(1, opts.total);
  const perClient = Math.max(1, Math.min(opts.perClient, total));
  const maxQueued = opts.maxQueuedPerClient ?? 256;
  const clients = new Map<string, ClientState>();
  /** Clients with waiting calls, in the order they are served next. */
  const turn: string[] = [];
  let running = 0;

  const stateOf = (client: string) => {
    let s = clients.get(client);
    if (!s) {
      s = { running: 0, queue: [] };
      clients.set(client, s);
    }
    return s;
  };
  const forget = (client: string, s: ClientState) => {
    if (s.running === 0 && s.queue.length === 0) clients.delete(client);
  };

  function releaseFor(client: string, s: ClientState): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      running--;
      s.running--;
      forget(client, s);
      pump();
    };
  }

  function pump(): void {
    // Serve waiting clients in turn while connections are free.
    let scanned = 0;
    while (running < total && turn.length > 0 && scanned < turn.length) {
      const client = turn.shift()!;
      const s = clients.get(client);
      if (!s || s.queue.length === 0) continue;
      if (s.running >= perClient) {
        turn.push(client);
        scanned++;
        continue;
      }
      scanned = 0;
      const w = s.queue.shift()!;
      running++;
      s.running++;
      if (s.queue.length > 0) turn.push(client);
      w.grant(releaseFor(client, s));
    }
  }

  const granted = () => undefined;

  function enter(client: string, onGrant: (release: () => void) => void): (() => void) | false {
    const s = stateOf(client);
    if (running < total && s.running < perClient && s.queue.length === 0) {
      running++;
      s.running++;
      onGrant(releaseFor(client, s));
      return granted;
    }
    if (s.queue.length >= maxQueued) {
      forget(client, s);
      return false;
    }
    const w: Waiter = { grant: onGrant };
    s.queue.push(w);
    if (s.queue.length === 1) turn.push(client);
    return () => {
      const i = s.queue.indexOf(w);
      if (i === -1) return;
      s.queue.splice(i, 1);
      forget(client, s);
    };
  }

  return {
    enter,
    acquire(client, signal) {
      if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
      return new Promise((resolve, reject) => {
        let withdraw: (() => void) | false = false;
        const onAbort = () => {
          if (withdraw) withdraw();
          reject(signal?.reason ?? new Error('aborted'));
        };
        withdraw = enter(client, (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        });
        if (withdraw === false) reject(new GateFull());
        else if (withdraw !== granted) signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    stats() {
      let waiting = 0;
      for (const s of clients.values()) waiting += s.queue.length;
      return { running, waiting, clients: clients.size };
    },
  };
}

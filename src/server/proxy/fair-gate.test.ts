import { describe, expect, it } from 'vitest';
import { createFairGate, GateFull } from './fair-gate';

/** Lets granted promises settle. */
const tick = () => new Promise((r) => setImmediate(r));

function track(p: Promise<() => void>, log: string[], name: string) {
  const out: { release?: () => void; error?: unknown } = {};
  p.then(
    (release) => {
      out.release = release;
      log.push(name);
    },
    (error: unknown) => {
      out.error = error;
    },
  );
  return out;
}

describe('fair gate', () => {
  it('runs at most `total` calls at once and at most `perClient` for one client', async () => {
    const gate = createFairGate({ total: 3, perClient: 2 });
    const log: string[] = [];
    const a1 = track(gate.acquire('a'), log, 'a1');
    track(gate.acquire('a'), log, 'a2');
    const a3 = track(gate.acquire('a'), log, 'a3');
    track(gate.acquire('b'), log, 'b1');
    const b2 = track(gate.acquire('b'), log, 'b2');
    await tick();
    expect(log).toEqual(['a1', 'a2', 'b1']);
    expect(gate.stats()).toEqual({ running: 3, waiting: 2, clients: 2 });
    expect(a3.release).toBeUndefined();
    expect(b2.release).toBeUndefined();
    // a frees one: a is below its share again and waited first, so its queued call takes the connection.
    a1.release!();
    await tick();
    expect(log).toEqual(['a1', 'a2', 'b1', 'a3']);
    expect(gate.stats()).toEqual({ running: 3, waiting: 1, clients: 2 });
  });

  it('serves waiting clients in turn: a client with many waiting calls delays another by one turn at most', async () => {
    const gate = createFairGate({ total: 2, perClient: 2 });
    const log: string[] = [];
    const held = [track(gate.acquire('busy'), log, 'busy0'), track(gate.acquire('busy'), log, 'busy1')];
    const queued = Array.from({ length: 5 }, (_, i) => track(gate.acquire('busy'), log, `busy${i + 2}`));
    track(gate.acquire('quiet'), log, 'quiet');
    await tick();
    expect(log).toEqual(['busy0', 'busy1']);
    held[0]!.release!();
    await tick();
    held[1]!.release!();
    await tick();
    // busy had the turn first, then quiet: quiet's call ran second, not after all five of busy's.
    expect(log).toEqual(['busy0', 'busy1', 'busy2', 'quiet']);
    expect(queued[1]!.release).toBeUndefined();
  });

  it('refuses at once past a client`s queue bound, without touching other clients', async () => {
    const gate = createFairGate({ total: 1, perClient: 1, maxQueuedPerClient: 2 });
    const log: string[] = [];
    track(gate.acquire('a'), log, 'a1');
    track(gate.acquire('a'), log, 'a2');
    track(gate.acquire('a'), log, 'a3');
    await expect(gate.acquire('a')).rejects.toBeInstanceOf(GateFull);
    const b = track(gate.acquire('b'), log, 'b1');
    await tick();
    expect(b.error).toBeUndefined();
    expect(gate.stats().waiting).toBe(3);
  });

  it('an aborted waiting call leaves the queue, and its turn goes to the next', async () => {
    const gate = createFairGate({ total: 1, perClient: 1 });
    const log: string[] = [];
    const first = track(gate.acquire('a'), log, 'a1');
    const ac = new AbortController();
    const aborted = track(gate.acquire('b', ac.signal), log, 'b1');
    track(gate.acquire('c'), log, 'c1');
    await tick();
    ac.abort(new Error('gone'));
    await tick();
    expect(aborted.error).toBeInstanceOf(Error);
    expect(gate.stats()).toEqual({ running: 1, waiting: 1, clients: 2 });
    first.release!();
    await tick();
    expect(log).toEqual(['a1', 'c1']);
  });

  it('an already aborted signal is refused without queueing', async () => {
    const gate = createFairGate({ total: 1, perClient: 1 });
    await gate.acquire('a');
    const ac = new AbortController();
    ac.abort(new Error('before'));
    await expect(gate.acquire('b', ac.signal)).rejects.toThrow('before');
    expect(gate.stats().waiting).toBe(0);
  });

  it('a release is counted once however often it is called, and idle clients are forgotten', async () => {
    const gate = createFairGate({ total: 2, perClient: 2 });
    const release = await gate.acquire('a');
    release();
    release();
    expect(gate.stats()).toEqual({ running: 0, waiting: 0, clients: 0 });
    const r1 = await gate.acquire('b');
    const r2 = await gate.acquire('c');
    expect(gate.stats().running).toBe(2);
    r1();
    r2();
    expect(gate.stats()).toEqual({ running: 0, waiting: 0, clients: 0 });
  });
});

describe('fair gate, callback form (the proxy path)', () => {
  it('grants at once while there is room, queues the rest, and withdraws a waiting call', () => {
    const gate = createFairGate({ total: 2, perClient: 1, maxQueuedPerClient: 1 });
    const granted: string[] = [];
    const releases: Array<() => void> = [];
    const enter = (client: string, name: string) =>
      gate.enter(client, (release) => {
        granted.push(name);
        releases.push(release);
      });
    expect(enter('a', 'a1')).not.toBe(false);
    expect(granted).toEqual(['a1']);
    const withdrawA2 = enter('a', 'a2');
    expect(enter('a', 'a3')).toBe(false);
    expect(enter('b', 'b1')).not.toBe(false);
    const c1 = enter('c', 'c1');
    expect(granted).toEqual(['a1', 'b1']);
    expect(gate.stats()).toEqual({ running: 2, waiting: 2, clients: 3 });
    // a2 gives up: its turn goes to c1 when a connection frees up.
    (withdrawA2 as () => void)();
    releases[0]!();
    expect(granted).toEqual(['a1', 'b1', 'c1']);
    (c1 as () => void)(); // withdrawing once granted changes nothing
    expect(gate.stats()).toEqual({ running: 2, waiting: 0, clients: 2 });
  });
});

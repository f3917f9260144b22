/**
 * Where the console running on a DATA_DIR really listens: `npm start` records its URL there, and
 * `npm start -- --sign-in-link` (a separate process, often run without the start's PORT) reads it back, so the
 * link it prints opens that console rather than the default port.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = 'console-address.json';

interface Recorded {
  url: string;
  pid: number;
}

/** Records the running console's URL (best effort: a read-only DATA_DIR only costs the link its port). */
export function recordAddress(dataDir: string, url: string): void {
  try {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, FILE), JSON.stringify({ url, pid: process.pid } satisfies Recorded));
  } catch {
    // Nothing to do: --sign-in-link falls back to HOST and PORT.
  }
}

/** Forgets it at shutdown, unless another console has recorded its own since. */
export function forgetAddress(dataDir: string): void {
  if (readRecorded(dataDir)?.pid === process.pid) rmSync(join(dataDir, FILE), { force: true });
}

function readRecorded(dataDir: string): Recorded | undefined {
  try {
    const raw: unknown = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8').slice(0, 4096));
    if (typeof raw !== 'object' || raw === null) return undefined;
    const { url, pid } = raw as Record<string, unknown>;
    if (typeof url !== 'string' || !/^https?:\/\/[^\s/]+$/.test(url)) return undefined;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
    return { url, pid };
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The URL of the console running on this DATA_DIR, if one recorded it and still runs. */
export function runningAddress(dataDir: string): string | undefined {
  const recorded = readRecorded(dataDir);
  return recorded && alive(recorded.pid) ? recorded.url : undefined;
}

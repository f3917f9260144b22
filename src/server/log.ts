/**
 * The console server's log sink. Lines are gathered and written together at most every 100 ms (or once 64 KB
 * are pending): a write to a pipe or a terminal is a blocking system call in Node, and one per request would
 * cost more than the request itself on a busy proxy.
 */
export interface LogWriter {
  (line: string): void;
  /** Writes what is pending now (before the process exits). */
  flush(): void;
}

const FLUSH_MS = 100;
const FLUSH_BYTES = 64 * 1024;

export function createLogWriter(out: { write(text: string): unknown } = process.stdout): LogWriter {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const text = pending;
    pending = '';
    out.write(text);
  };
  const write = (line: string) => {
    pending += `${line}\n`;
    if (pending.length >= FLUSH_BYTES) flush();
    // Unref'd: pending lines never keep the process alive (exits flush them).
    else timer ??= setTimeout(flush, FLUSH_MS).unref();
  };
  process.once('exit', flush);
  return Object.assign(write, { flush });
}

/**
 * How much of the request log reaches the terminal: every request, only answers that are HTTP errors (status
 * 400 and above), or none. A console left open polls, so `all` writes thousands of lines an hour into the
 * terminal that also holds the sign-in link; a terminal gets `errors` unless asked otherwise, while a pipe (a
 * container's log collector) keeps `all`.
 */
export type RequestLogMode = 'off' | 'errors' | 'all';

export const REQUEST_LOG_MODES: readonly RequestLogMode[] = ['off', 'errors', 'all'];

/**
 * The mode from `LOG_REQUESTS` and the command line (`--quiet` is `off`, `--log-requests=<mode>` names one;
 * the command line wins over the environment), or the problem in words.
 */
export function requestLogMode(
  env: string | undefined,
  argv: readonly string[],
  terminal: boolean,
): { mode: RequestLogMode; problem?: undefined } | { mode?: undefined; problem: string } {
  const flag = argv.findLast((a) => a === '--quiet' || a.startsWith('--log-requests='));
  const [raw, source] =
    flag === '--quiet'
      ? ['off', '--quiet']
      : flag !== undefined
        ? [flag.slice('--log-requests='.length), '--log-requests']
        : [env?.trim() || undefined, 'LOG_REQUESTS'];
  if (raw === undefined) return { mode: terminal ? 'errors' : 'all' };
  const mode = REQUEST_LOG_MODES.find((m) => m === raw.toLowerCase());
  if (!mode) return { problem: `${source} must be off, errors or all (got "${raw}")` };
  return { mode };
}

/** A request line as the console server writes it: method, path, status, duration. */
const REQUEST_LINE = /^[A-Z]+ \S+ (\d{3}) \d+(?:\.\d+)?ms$/;

/**
 * A log that lets through what `mode` asks for. Lines that are not request lines (an outage, a failed
 * housekeeping) always pass: those are what an admin must see.
 */
export function filterRequestLog(mode: RequestLogMode, write: (line: string) => void): (line: string) => void {
  if (mode === 'all') return write;
  return (line) => {
    const request = REQUEST_LINE.exec(line);
    if (!request) return write(line);
    if (mode === 'errors' && Number(request[1]) >= 400) write(line);
  };
}

/** The banner's line about the request log, saying how to change it. */
export function describeRequestLog(mode: RequestLogMode): string {
  return mode === 'all'
    ? 'request log: every request (LOG_REQUESTS=errors or off, or --quiet, for fewer)'
    : mode === 'errors'
      ? 'request log: errors only, status 400 and above (LOG_REQUESTS=all for every request, off or --quiet for none)'
      : 'request log: off (LOG_REQUESTS=errors or all to see requests)';
}

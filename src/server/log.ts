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

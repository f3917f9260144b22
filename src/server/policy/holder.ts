/**
 * The policy in force, reloaded without a restart: on SIGHUP and when the file changes (polled, so it works on
 * every file system and through editors that replace the file). A reloaded file that does not pass the checks
 * leaves the policy in force as it was, with one log line saying why.
 */
import { unwatchFile, watchFile } from 'node:fs';
import { loadPolicyFile, noPolicy, PolicyError, type Policy } from './policy';

export interface PolicyHolder {
  current(): Policy;
  /** Reads the file again: true when the new policy is in force. */
  reload(): boolean;
  close(): void;
}

const POLL_MS = 2_000;

/** Without a path: the built-in policy (no file). With one: loaded now (throws PolicyError) and watched. */
export function createPolicyHolder(
  path: string | undefined,
  log: (line: string) => void = (l) => console.error(l),
  opts: { watch?: boolean } = {},
): PolicyHolder {
  if (!path) return { current: noPolicy, reload: () => true, close: () => undefined };
  let policy = loadPolicyFile(path);
  const reload = () => {
    try {
      policy = loadPolicyFile(path);
      log(`[console] CONSOLE_POLICY_FILE reloaded: ${policy.roles.size} roles, ${policy.grants.length} grants`);
      return true;
    } catch (err) {
      const why = err instanceof PolicyError ? err.problems.join('; ') : String(err);
      log(`[console] CONSOLE_POLICY_FILE not reloaded, the previous policy stays in force: ${why}`);
      return false;
    }
  };
  const watching = opts.watch ?? true;
  const onChange = () => void reload();
  const onHup = () => void reload();
  if (watching) {
    watchFile(path, { interval: POLL_MS, persistent: false }, onChange);
    process.on('SIGHUP', onHup);
  }
  return {
    current: () => policy,
    reload,
    close() {
      if (!watching) return;
      unwatchFile(path, onChange);
      process.off('SIGHUP', onHup);
    },
  };
}

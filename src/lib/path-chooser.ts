/**
 * The API client's path chooser (installed by src/lib/console-config.ts): calls go to the operation's own path;
 * a 404/405 there, whatever the body, loads the alternates and the per-upstream memory (src/lib/served-paths.ts)
 * and tries them. Once a choice may exist, learned in this page or stored by an earlier one, every API call goes
 * through that memory, so a remembered path is called straight away.
 */
import { SERVED_PATHS_KEY, type PathChooser } from './api-client';
import { ApiError } from './api-error';
import type * as ServedPathsModule from './served-paths';

/** The memory, once wanted: a chunk that failed to load leaves calls at the operation's own path. */
let servedPaths: Promise<typeof ServedPathsModule> | undefined;
/** Whether an earlier page stored a path choice. */
let storedChoices: boolean | undefined;

export const choosePath: PathChooser = (id, path, send) => {
  const viaMemory = (notServed?: ApiError) =>
    (servedPaths ??= import('./served-paths')).then(
      (m) => m.callServed(id, path, send, notServed),
      () => (notServed ? Promise.reject(notServed) : send(path)),
    );
  storedChoices ??= (() => {
    try {
      return localStorage.getItem(SERVED_PATHS_KEY) !== null;
    } catch {
      return false;
    }
  })();
  if (servedPaths || storedChoices) return viaMemory();
  return send(path).catch((err: unknown) =>
    err instanceof ApiError && (err.status === 404 || err.status === 405) ? viaMemory(err) : Promise.reject(err),
  );
};

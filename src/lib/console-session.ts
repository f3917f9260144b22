/**
 * How this browser is signed in to the console (`GET /console/session`): the method, until when, the person
 * (name, email, groups from single sign-on, or the name given at sign-in) and their console roles with what
 * those allow where (read by `principal.ts`). Answered by the console's access control itself, not by its
 * operation table, hence a plain fetch.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ConsoleSession } from '@/api/console/session';
import { takeFirstAnswer } from './first-answers';

export const consoleSessionQueryOptions = () =>
  queryOptions({
    queryKey: ['console-session'] as const,
    queryFn: async ({ signal }): Promise<ConsoleSession> => {
      // Carried by a page whose first screen the server rendered (src/lib/first-answers.ts).
      const embedded = takeFirstAnswer('/console/session');
      if (embedded !== undefined) return embedded as ConsoleSession;
      const res = await fetch('/console/session', {
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
        signal,
      });
      if (!res.ok) throw new Error(`/console/session answered ${res.status}`);
      return (await res.json()) as ConsoleSession;
    },
    // The person and their roles do not change during a session (roles are taken at sign-in); a new sign-in
    // reloads the page.
    staleTime: Infinity,
    retry: false,
  });

/**
 * How this browser is signed in to the console (`GET /console/session`): the method, until when, and the name
 * of the person given at sign-in (shown in the shell's header beside Sign out). Answered by the console's access
 * control itself, not by its operation table, hence a plain fetch.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ConsoleSession } from '@/api/console/session';

export const consoleSessionQueryOptions = () =>
  queryOptions({
    queryKey: ['console-session'] as const,
    queryFn: async ({ signal }): Promise<ConsoleSession> => {
      const res = await fetch('/console/session', {
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
        signal,
      });
      if (!res.ok) throw new Error(`/console/session answered ${res.status}`);
      return (await res.json()) as ConsoleSession;
    },
    // The name does not change during a session; a new sign-in reloads the page.
    staleTime: Infinity,
    retry: false,
  });

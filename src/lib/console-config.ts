/** The console server's configuration status (`/console/config`): which API, and how people sign in. */
import { queryOptions } from '@tanstack/react-query';

export const consoleConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['console-config'] as const,
    queryFn: async ({ signal }) => {
      const { apiCall } = await import('@/lib/api-client');
      return apiCall('console.config', { signal });
    },
    staleTime: Infinity,
  });

/**
 * The console server's configuration status (`/console/config`): which API, and how people sign in. Loading it
 * installs the API client's path chooser (which path of an operation that API serves, remembered per API): this
 * module is on the first screen, and the chooser's lazy import belongs in this chunk, not in the client's.
 */
import { queryOptions } from '@tanstack/react-query';
import { apiCall, setPathChooser } from './api-client';
import { choosePath } from './path-chooser';

setPathChooser(choosePath);

export const consoleConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['console-config'] as const,
    queryFn: ({ signal }) => apiCall('console.config', { signal }),
    staleTime: Infinity,
  });

/**
 * The query keys of the enterprise's git connections, one factory for every screen that reads them (the git
 * connections list, the git permission pickers), so one invalidation of `all` reaches every copy.
 */
export const gitConnectionKeys = {
  all: ['git-connections'] as const,
  /** Every connection, all pages read at once (the pickers). */
  list: () => [...gitConnectionKeys.all, 'list'] as const,
  /** The connections page by page (the git connections screen). */
  infinite: () => [...gitConnectionKeys.all, 'infinite'] as const,
  repositories: (connectionId: string, filter: string) =>
    [...gitConnectionKeys.all, 'repositories', connectionId, filter] as const,
};

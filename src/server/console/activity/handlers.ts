/** `GET /console/activity`: the console's activity record, filtered and paged (newest first). */
import type { ConsoleHandlers } from '../mount';
import type { ActivityStore } from './store';

const DEFAULT_PAGE = 100;

export function activityHandlers(store: ActivityStore): ConsoleHandlers {
  return {
    'console.activity.list': async ({ query }) => {
      const limit = query.first ?? DEFAULT_PAGE;
      const rows = await store.list(
        {
          person: query.person || undefined,
          operation: query.operation || undefined,
          org_id: query.org_id || undefined,
          from: query.from !== undefined ? query.from * 1000 : undefined,
          to: query.to !== undefined ? query.to * 1000 : undefined,
          outcome: query.outcome,
          before: query.after,
        },
        limit + 1,
      );
      const page = rows.slice(0, limit);
      const more = rows.length > limit;
      return {
        items: page.map((r) => ({ ...r, at: Math.floor(r.at / 1000) })),
        end_cursor: more && page.length ? String(page[page.length - 1]!.id) : null,
        has_next_page: more,
      };
    },
  };
}

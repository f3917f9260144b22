/**
 * The header's notifications bell: the number of unread alert notifications, linking to the list. Always the
 * same size (the HTML pre-paints the header, so nothing may shift when the count arrives); its accessible name
 * is its visible text plus the count, so what is read out matches what is shown.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Bell } from 'lucide-react';
import { unreadCountQueryOptions } from '@/lib/alerts';
import { useDocumentVisible } from '@/lib/use-document-visible';
import { cn } from '@/lib/cn';

export function NotificationsBell() {
  const visible = useDocumentVisible();
  const q = useQuery({ ...unreadCountQueryOptions(), refetchInterval: visible ? 30_000 : false, retry: false });
  const unread = q.data?.unread ?? 0;
  const shown = unread > 99 ? '99+' : String(unread);
  const name = unread === 0 ? 'Notifications, none unread' : `Notifications, ${unread} unread`;
  return (
    <Link
      to="/alerts"
      aria-label={name}
      title={name}
      className="relative inline-flex size-9 shrink-0 items-center justify-center rounded-md border border-line hover:bg-surface-2"
    >
      <Bell className="size-4" aria-hidden />
      <span
        aria-hidden
        data-testid="unread-count"
        className={cn(
          'absolute -top-1.5 -right-1.5 flex h-4 min-w-4 items-center justify-center rounded-full px-1 text-[0.625rem] leading-none font-semibold tabular-nums',
          unread > 0 ? 'bg-danger text-white' : 'invisible',
        )}
      >
        {shown}
      </span>
    </Link>
  );
}

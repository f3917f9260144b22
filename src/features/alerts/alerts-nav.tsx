/** The three alerts screens, linked from each: notifications, rules, webhooks. */
import { Link } from '@tanstack/react-router';

const LINKS = [
  { to: '/alerts', label: 'Notifications' },
  { to: '/alerts/rules', label: 'Rules' },
  { to: '/alerts/webhooks', label: 'Webhooks' },
] as const;

export function AlertsNav() {
  return (
    <nav aria-label="Alerts" className="mb-4 flex flex-wrap gap-1 border-b border-line">
      {LINKS.map((l) => (
        <Link
          key={l.to}
          to={l.to}
          activeOptions={{ exact: true, includeSearch: false }}
          className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm text-muted hover:text-fg"
          activeProps={{ className: 'border-accent! text-accent! font-semibold', 'aria-current': 'page' }}
        >
          {l.label}
        </Link>
      ))}
    </nav>
  );
}

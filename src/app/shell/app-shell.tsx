/** The layout around every screen: sidebar navigation, organization switcher, theme, global notices. */
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { Lock, LogOut, Menu, X } from 'lucide-react';
import { useLayoutEffect, useState, type ReactNode } from 'react';
import { Badge } from '@/components/badge';
import { GlobalNotices } from '@/components/global-notices';
import { consoleConfigQueryOptions } from '@/lib/console-config';
import { lastOrg } from '@/lib/last-org';
import { OrgSwitcher } from '@/features/organizations/org-switcher';
import { cn } from '@/lib/cn';
import { usePermissionCheck } from '@/lib/principal';
import { ENTERPRISE_NAV, organizationNav, type NavItem } from '@/lib/nav';
import { HeaderMenu } from './header-menu';
import { QueueStatus } from './queue-status';
import { NotificationsBell } from './notifications-bell';
import { ThemeToggle } from './theme-toggle';
import { TimeToggle } from './time-toggle';
import { Shortcuts } from './shortcuts';
import { SignedInAs } from './signed-in-as';

/**
 * One area of the navigation. An area the console's credential or the person's console roles refuse stays
 * reachable (its page says what is missing) but is marked, with the reason in its title. `orgId` is where the
 * area is judged: null for the enterprise's areas (whatever organization is on screen), the organization it links
 * to for an organization's.
 */
function NavLink({ item, orgId, onNavigate }: { item: NavItem; orgId: string | null; onNavigate: () => void }) {
  const { label, exact, permission, operation: _operation, ...link } = item;
  const verdict = usePermissionCheck()(permission, orgId);
  const can = verdict.allowed;
  return (
    <Link
      {...link}
      activeOptions={{ exact, includeSearch: false }}
      onClick={onNavigate}
      title={can === false ? verdict.reason : undefined}
      className={cn(
        'flex items-center justify-between gap-2 rounded-md px-2.5 py-1.5 text-sm hover:bg-surface-2',
        can === false ? 'text-muted' : 'text-fg',
      )}
      activeProps={{ className: 'bg-accent/10 font-semibold text-accent', 'aria-current': 'page' }}
    >
      {label}
      {can === false && (
        <span className="flex items-center gap-1 text-xs font-normal">
          <Lock className="size-3" aria-hidden />
          <span className="sr-only">(needs {permission})</span>
        </span>
      )}
    </Link>
  );
}

/**
 * Ends the sign-in session on the server (which clears the cookie), then shows the sign-in page. A fetch,
 * not a form: the app's pages use `Referrer-Policy: no-referrer`, under which a form POST carries
 * `Origin: null` and the console's cross-site guard refuses it.
 */
async function signOut() {
  try {
    await fetch('/console/sign-out', { method: 'POST', credentials: 'same-origin', redirect: 'manual' });
  } finally {
    window.location.assign('/console/sign-in');
  }
}

/** The id of the shell index.html paints before any script runs. */
export const FIRST_PAINT_ID = 'first-paint';

export function AppShell({ children }: { children: ReactNode }) {
  // The shell painted from the HTML gives way to this one in the same frame (a layout effect runs before the
  // browser paints), so the page never shows both, nor neither.
  useLayoutEffect(() => {
    document.getElementById(FIRST_PAINT_ID)?.remove();
    performance.mark('console:shell-committed');
  }, []);
  const params = useParams({ strict: false }) as { orgId?: string };
  const orgId = params.orgId ?? lastOrg() ?? undefined;
  const [menuOpen, setMenuOpen] = useState(false);
  const config = useQuery(consoleConfigQueryOptions());
  // 'link' | 'token' when people sign in, 'off' with CONSOLE_AUTH=off.
  const accessControl = config.data?.access_control;
  const signedIn = accessControl === 'link' || accessControl === 'token';
  const close = () => setMenuOpen(false);

  return (
    <div className="flex min-h-dvh bg-bg text-fg">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:z-50 focus:bg-surface focus:p-2"
        // Focus itself moves to the content (following the link alone leaves it on the body in some browsers),
        // so the next Tab goes on from the page's first control, not from the header's.
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        Skip to content
      </a>
      <aside
        className={cn(
          'fixed inset-y-0 left-0 z-30 w-64 shrink-0 flex-col gap-4 overflow-y-auto border-r border-line bg-surface p-3 md:sticky md:top-0 md:flex md:h-dvh',
          menuOpen ? 'flex' : 'hidden',
        )}
        aria-label="Main navigation"
      >
        <div className="flex items-center justify-between">
          <Link to="/" className="px-1 text-base font-semibold tracking-tight" onClick={close}>
            Agent Platform Console
          </Link>
          <button type="button" className="md:hidden" aria-label="Close menu" onClick={close}>
            <X className="size-5" aria-hidden />
          </button>
        </div>
        <nav aria-label="Enterprise">
          <p className="px-2.5 pb-1 text-xs font-semibold tracking-wide text-muted uppercase">Enterprise</p>
          {ENTERPRISE_NAV.map((item) => (
            <NavLink key={item.label} item={item} orgId={null} onNavigate={close} />
          ))}
        </nav>
        <nav aria-label="Organization">
          <p className="px-2.5 pb-1 text-xs font-semibold tracking-wide text-muted uppercase">Organization</p>
          <div className="px-1 pb-2">
            <OrgSwitcher />
          </div>
          {orgId ? (
            organizationNav(orgId).map((item) => (
              <NavLink key={item.label} item={item} orgId={orgId} onNavigate={close} />
            ))
          ) : (
            <p className="px-2.5 text-xs text-muted">Choose an organization to see its areas.</p>
          )}
        </nav>
      </aside>
      {menuOpen && <div className="fixed inset-0 z-20 bg-black/30 md:hidden" onClick={close} aria-hidden />}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-10 flex h-14 items-center justify-between gap-2 border-b border-line bg-surface px-4 sm:gap-3">
          <button
            type="button"
            className="inline-flex size-9 items-center justify-center rounded-md border border-line md:hidden"
            aria-label="Open menu"
            onClick={() => setMenuOpen(true)}
          >
            <Menu className="size-5" aria-hidden />
          </button>
          <div className="flex items-center gap-2 text-sm text-muted">
            {config.data?.sandbox ? (
              <Badge tone="warn" title="No credential is configured: the console talks to its embedded sandbox">
                Sandbox
              </Badge>
            ) : config.data ? (
              <Badge tone="success" title={config.data.upstream}>
                Live API
              </Badge>
            ) : null}
          </div>
          <div className="flex min-w-0 items-center gap-1.5 sm:gap-2">
            <QueueStatus />
            <NotificationsBell />
            <Shortcuts />
            <SignedInAs enabled={signedIn} />
            {/* On a phone these three move into the header's menu: beside the rest they overflow 390 px. */}
            <div className="hidden items-center gap-2 sm:flex">
              {signedIn && (
                <button
                  type="button"
                  className="inline-flex h-9 items-center gap-1.5 rounded-md border border-line px-2.5 text-sm hover:bg-surface-2"
                  onClick={() => void signOut()}
                >
                  <LogOut className="size-4" aria-hidden />
                  Sign out
                </button>
              )}
              <TimeToggle />
              <ThemeToggle />
            </div>
            <HeaderMenu className="sm:hidden" onSignOut={signedIn ? () => void signOut() : undefined} />
          </div>
        </header>
        <GlobalNotices />
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 p-4 outline-none md:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}

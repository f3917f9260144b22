/**
 * The shell's notice when the last doctor report found operations the console's credential may not call: how
 * many, which permissions, and a link to the Doctor screen. Dismissed per report (a new report shows it again).
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { X } from 'lucide-react';
import { useState } from 'react';
import { doctorSummaryQueryOptions } from '@/lib/doctor-summary';

const DISMISSED_KEY = 'doctor-notice-dismissed';

function dismissedAt(): string | null {
  try {
    return window.localStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

export function DoctorNotice() {
  const summary = useQuery(doctorSummaryQueryOptions());
  const [dismissed, setDismissed] = useState(dismissedAt);
  const s = summary.data;
  if (!s || s.refused_count === 0 || s.ran_at === null || dismissed === String(s.ran_at)) return null;
  const permissions = [...new Set(s.refused.map((r) => r.permission).filter((p): p is string => !!p))];
  const dismiss = () => {
    try {
      window.localStorage.setItem(DISMISSED_KEY, String(s.ran_at));
    } catch {
      // storage unavailable: dismissed for this page only
    }
    setDismissed(String(s.ran_at));
  };
  return (
    <div role="status" className="flex items-start gap-3 border-b border-warn/40 bg-warn/10 px-4 py-2 text-sm">
      <p className="min-w-0 flex-1">
        The last doctor run found {s.refused_count} operation{s.refused_count === 1 ? '' : 's'} the console's credential
        may not call
        {permissions.length > 0 && (
          <>
            {' '}
            (needs {permissions.slice(0, 4).join(', ')}
            {permissions.length > 4 ? ` and ${permissions.length - 4} more` : ''})
          </>
        )}
        .{' '}
        <Link to="/doctor" className="font-medium text-accent underline underline-offset-2">
          See the Doctor
        </Link>
      </p>
      <button
        type="button"
        onClick={dismiss}
        className="rounded p-0.5 text-muted hover:bg-surface-2 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
        aria-label="Dismiss the doctor notice"
      >
        <X className="size-4" aria-hidden />
      </button>
    </div>
  );
}

/**
 * The warning that a list would lock the console out (it does not admit the addresses the console reaches the
 * API from), shown while editing and again in the review.
 */
import { ShieldAlert } from 'lucide-react';

export function LockoutWarning({ addresses }: { addresses: readonly string[] }) {
  return (
    <div role="alert" className="flex gap-2 rounded-lg border border-warn/40 bg-warn/10 p-3 text-sm">
      <ShieldAlert className="mt-0.5 size-4 shrink-0 text-warn" aria-hidden />
      <p>
        This list does not admit {addresses.length === 1 ? 'the address' : 'the addresses'}{' '}
        <strong className="font-mono">{addresses.join(', ')}</strong> the console reaches the API from. Applied, it
        would lock the console out: every later request would be refused. Add {addresses.length === 1 ? 'it' : 'them'}{' '}
        to the list, or be ready to type the enterprise’s name to apply it anyway.
      </p>
    </div>
  );
}

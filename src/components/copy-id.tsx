/** An id in monospace with a button that copies it; the button says when it has. */
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';

export function CopyId({ value, label = 'id' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(null), 2_000);
    return () => clearTimeout(t);
  }, [copied]);
  return (
    <span className="inline-flex items-center gap-1">
      <span className="font-mono">{value}</span>
      <button
        type="button"
        className="inline-flex size-6 items-center justify-center rounded text-muted hover:bg-surface-2 hover:text-fg"
        aria-label={`Copy ${label}`}
        onClick={() =>
          void navigator.clipboard?.writeText(value).then(
            () => setCopied('yes'),
            () => setCopied('failed'),
          )
        }
      >
        {copied === 'yes' ? (
          <Check className="size-3.5 text-success" aria-hidden />
        ) : (
          <Copy className="size-3.5" aria-hidden />
        )}
      </button>
      <span role="status" className="text-xs text-muted">
        {copied === 'yes' ? 'Copied' : copied === 'failed' ? 'Could not copy' : ''}
      </span>
    </span>
  );
}

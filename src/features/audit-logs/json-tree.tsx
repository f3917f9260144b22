/**
 * An entry's `data` as formatted, collapsible JSON: objects and arrays fold and unfold (each a button with
 * aria-expanded), values are coloured by type, and "Expand all" / "Collapse all" reset every level at once.
 */
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function Scalar({ value }: { value: Json }) {
  if (value === null) return <span className="text-warn">null</span>;
  if (typeof value === 'boolean') return <span className="text-warn">{String(value)}</span>;
  if (typeof value === 'number') return <span className="text-info">{value}</span>;
  return <span className="break-all text-success">{JSON.stringify(value)}</span>;
}

interface NodeProps {
  name: string | null;
  value: Json;
  depth: number;
  /** Levels shown unfolded by default; bumping `version` re-applies it to every node. */
  openDepth: number;
  version: number;
  last: boolean;
}

function JsonNode(props: NodeProps) {
  return <JsonNodeInner key={props.version} {...props} />;
}

function JsonNodeInner({ name, value, depth, openDepth, version, last }: NodeProps) {
  const [open, setOpen] = useState(depth < openDepth);
  const comma = last ? '' : ',';
  const label =
    name === null ? null : (
      <>
        <span className="text-accent">{JSON.stringify(name)}</span>
        <span className="text-muted">: </span>
      </>
    );
  if (value === null || typeof value !== 'object') {
    return (
      <div className="pl-5">
        {label}
        <Scalar value={value} />
        <span className="text-muted">{comma}</span>
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries: Array<[string | null, Json]> = isArray ? value.map((v) => [null, v]) : Object.entries(value);
  const [openBr, closeBr] = isArray ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div className="pl-5">
        {label}
        <span className="text-muted">
          {openBr}
          {closeBr}
          {comma}
        </span>
      </div>
    );
  }
  const what = isArray
    ? `${entries.length} item${entries.length === 1 ? '' : 's'}`
    : `${entries.length} key${entries.length === 1 ? '' : 's'}`;
  return (
    <div>
      <button
        type="button"
        className="inline-flex items-center rounded text-left hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-accent"
        aria-expanded={open}
        aria-label={`${name ?? (depth === 0 ? 'data' : 'item')} (${what})`}
        onClick={() => setOpen((o) => !o)}
      >
        {open ? (
          <ChevronDown className="size-4 shrink-0 text-muted" aria-hidden />
        ) : (
          <ChevronRight className="size-4 shrink-0 text-muted" aria-hidden />
        )}
        <span className="pl-1">
          {label}
          <span className="text-muted">{openBr}</span>
          {!open && (
            <span className="text-muted">
              {' '}
              … {what} {closeBr}
              {comma}
            </span>
          )}
        </span>
      </button>
      {open && (
        <>
          <div className="ml-2 border-l border-line pl-2">
            {entries.map(([k, v], i) => (
              <JsonNode
                key={k ?? i}
                name={k}
                value={v}
                depth={depth + 1}
                openDepth={openDepth}
                version={version}
                last={i === entries.length - 1}
              />
            ))}
          </div>
          <div className="pl-5 text-muted">
            {closeBr}
            {comma}
          </div>
        </>
      )}
    </div>
  );
}

export function JsonTree({ value, label = 'data' }: { value: unknown; label?: string }) {
  const [state, setState] = useState({ openDepth: 3, version: 0 });
  const [copied, setCopied] = useState(false);
  const json = (value ?? null) as Json;
  return (
    <div className="rounded-md border border-line bg-surface-2/50">
      <div className="flex flex-wrap items-center gap-1 border-b border-line px-2 py-1">
        <Button size="sm" variant="ghost" onClick={() => setState((s) => ({ openDepth: 100, version: s.version + 1 }))}>
          Expand all
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setState((s) => ({ openDepth: 1, version: s.version + 1 }))}>
          Collapse all
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            void navigator.clipboard
              ?.writeText(JSON.stringify(value, null, 2))
              .then(() => {
                setCopied(true);
                setTimeout(() => setCopied(false), 1500);
              })
              .catch(() => undefined);
          }}
        >
          {copied ? 'Copied' : 'Copy JSON'}
        </Button>
      </div>
      <div role="group" aria-label={`${label} as JSON`} className="overflow-x-auto p-2 font-mono text-xs leading-5">
        <JsonNode name={null} value={json} depth={0} openDepth={state.openDepth} version={state.version} last />
      </div>
    </div>
  );
}

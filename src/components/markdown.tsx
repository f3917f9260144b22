/**
 * A small, safe Markdown renderer for note and playbook bodies: it builds React elements (never HTML strings), so raw HTML
 * in a note shows as text, and links keep only http(s), mailto and in-page targets.
 *
 * Supported: ATX headings, paragraphs, fenced code, block quotes, bullet / numbered / task lists (one level),
 * tables, horizontal rules; inline code, **bold**, *italic* / _italic_, ~~strike~~, [links](url) and <autolinks>.
 */
import { Fragment, type ReactNode } from 'react';
import { Checkbox } from '@/components/ui/checkbox';

export type Block =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; text: string }
  | { type: 'paragraph'; text: string }
  | { type: 'code'; lang: string; text: string }
  | { type: 'quote'; blocks: Block[] }
  | { type: 'list'; ordered: boolean; start: number; items: Array<{ text: string; checked: boolean | null }> }
  | { type: 'table'; header: string[]; rows: string[][] }
  | { type: 'rule' };

const BULLET = /^\s{0,3}[-*+]\s+(.*)$/;
const ORDERED = /^\s{0,3}(\d{1,9})[.)]\s+(.*)$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s{0,3}(```|~~~)\s*([\w+-]*)\s*$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const TABLE_SEP = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

/** Splits Markdown source into blocks. */
export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  const isBlank = (l: string | undefined) => l === undefined || l.trim() === '';
  const startsBlock = (l: string, next: string | undefined) =>
    FENCE.test(l) ||
    HEADING.test(l) ||
    RULE.test(l) ||
    /^\s{0,3}>/.test(l) ||
    BULLET.test(l) ||
    ORDERED.test(l) ||
    (l.includes('|') && next !== undefined && TABLE_SEP.test(next));

  while (i < lines.length) {
    const line = lines[i]!;
    if (isBlank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !lines[i]!.trim().startsWith(fence[1]!)) body.push(lines[i++]!);
      i++; // the closing fence (or the end)
      blocks.push({ type: 'code', lang: fence[2] ?? '', text: body.join('\n') });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: 'heading', level: heading[1]!.length as 1, text: heading[2]! });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ type: 'rule' });
      i++;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && /^\s{0,3}>/.test(lines[i]!)) inner.push(lines[i++]!.replace(/^\s{0,3}>\s?/, ''));
      blocks.push({ type: 'quote', blocks: parseBlocks(inner.join('\n')) });
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]!)) {
      const header = splitRow(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && !isBlank(lines[i]) && lines[i]!.includes('|')) rows.push(splitRow(lines[i++]!));
      blocks.push({ type: 'table', header, rows });
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = ORDERED.exec(line);
    if (bullet || ordered) {
      const isOrdered = !bullet;
      const re = isOrdered ? ORDERED : BULLET;
      const items: Array<{ text: string; checked: boolean | null }> = [];
      while (i < lines.length) {
        const m = re.exec(lines[i]!);
        if (m) {
          const text = (isOrdered ? m[2] : m[1])!;
          const task = /^\[([ xX])\]\s+(.*)$/.exec(text);
          items.push(task ? { text: task[2]!, checked: task[1] !== ' ' } : { text, checked: null });
          i++;
        } else if (!isBlank(lines[i]) && /^\s+/.test(lines[i]!) && items.length > 0) {
          // A continuation line of the previous item.
          items[items.length - 1]!.text += ` ${lines[i++]!.trim()}`;
        } else {
          break;
        }
      }
      blocks.push({ type: 'list', ordered: isOrdered, start: ordered ? Number(ordered[1]) : 1, items });
      continue;
    }
    const para: string[] = [line.trim()];
    i++;
    while (i < lines.length && !isBlank(lines[i]) && !startsBlock(lines[i]!, lines[i + 1]))
      para.push(lines[i++]!.trim());
    blocks.push({ type: 'paragraph', text: para.join('\n') });
  }
  return blocks;
}

/**
 * Only targets that cannot run script or leave for another site unannounced: absolute `http(s)://host…`,
 * `mailto:`, in-page `#anchors` and same-site paths `/x`. Scheme-relative `//host`, `/\host` (browsers read a
 * backslash as a slash), any backslash, control character or whitespace inside the target, and every other
 * scheme (`javascript:`, `data:`, `vbscript:`, entity-encoded tricks, which are not decoded here) are refused.
 */
export function safeHref(url: string): string | null {
  const u = url.trim();
  // Browsers drop tabs and newlines inside URLs and read "\" as "/": refuse them rather than guess.
  // eslint-disable-next-line no-control-regex
  if (u === '' || /[\\\s\u0000-\u001f\u007f-\u009f]/.test(u)) return null;
  if (u.startsWith('#')) return u;
  if (/^\/(?![/\\])/.test(u)) return u;
  if (/^mailto:[^/]/i.test(u)) return u;
  if (/^https?:\/\/[^/]/i.test(u)) {
    try {
      const parsed = new URL(u);
      return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '' ? u : null;
    } catch {
      return null;
    }
  }
  return null;
}

// A link's target has no spaces and parentheses only in balanced pairs (`…/Foo_(bar)`, `javascript:alert(1)`),
// so `[x](javascript:alert(1))` is one link (refused by safeHref) and no stray ")" is left behind.
const INLINE =
  /(`+)([\s\S]*?[^`])\1(?!`)|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|~~([\s\S]+?)~~|\*([^*\s][\s\S]*?)\*|(?<![\w])_([^_\s][\s\S]*?)_(?![\w])|\[([^\]]+)\]\(((?:[^()\s]|\([^()\s]*\))+)(?:\s+"[^"]*")?\)|<((?:https?:\/\/|mailto:)[^>\s]+)>|\n/g;

/** Renders inline Markdown to React nodes. */
export function renderInline(text: string, keyPrefix = 'i'): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const m of text.matchAll(INLINE)) {
    const at = m.index;
    if (at > last) out.push(text.slice(last, at));
    const key = `${keyPrefix}-${n++}`;
    if (m[1] !== undefined) {
      out.push(
        <code key={key} className="rounded bg-surface-2 px-1 py-0.5 font-mono text-[0.9em]">
          {m[2]}
        </code>,
      );
    } else if (m[3] !== undefined || m[4] !== undefined) {
      out.push(<strong key={key}>{renderInline((m[3] ?? m[4])!, key)}</strong>);
    } else if (m[5] !== undefined) {
      out.push(<del key={key}>{renderInline(m[5], key)}</del>);
    } else if (m[6] !== undefined || m[7] !== undefined) {
      out.push(<em key={key}>{renderInline((m[6] ?? m[7])!, key)}</em>);
    } else if (m[8] !== undefined) {
      const href = safeHref(m[9]!);
      out.push(
        href ? (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-accent underline">
            {renderInline(m[8], key)}
          </a>
        ) : (
          <Fragment key={key}>{renderInline(m[8], key)}</Fragment>
        ),
      );
    } else if (m[10] !== undefined) {
      const href = safeHref(m[10]);
      out.push(
        href ? (
          <a key={key} href={href} target="_blank" rel="noopener noreferrer nofollow" className="text-accent underline">
            {m[10]}
          </a>
        ) : (
          <Fragment key={key}>{m[10]}</Fragment>
        ),
      );
    } else {
      out.push(<br key={key} />);
    }
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const HEADING_CLASS = [
  '',
  'text-xl font-semibold',
  'text-lg font-semibold',
  'text-base font-semibold',
  'font-semibold',
  'font-semibold',
  'font-semibold',
];

function renderBlock(b: Block, key: string): ReactNode {
  switch (b.type) {
    case 'heading': {
      const Tag = `h${Math.min(6, b.level + 1)}` as 'h2';
      return (
        <Tag key={key} className={HEADING_CLASS[b.level]}>
          {renderInline(b.text, key)}
        </Tag>
      );
    }
    case 'paragraph':
      return <p key={key}>{renderInline(b.text, key)}</p>;
    case 'code':
      return (
        <pre key={key} className="overflow-x-auto rounded-md border border-line bg-surface-2 p-3 font-mono text-xs">
          <code data-lang={b.lang || undefined}>{b.text}</code>
        </pre>
      );
    case 'quote':
      return (
        <blockquote key={key} className="flex flex-col gap-2 border-l-4 border-line pl-3 text-muted">
          {b.blocks.map((inner, i) => renderBlock(inner, `${key}-${i}`))}
        </blockquote>
      );
    case 'list': {
      const items = b.items.map((item, i) => (
        <li key={`${key}-${i}`} className={item.checked !== null ? 'list-none' : undefined}>
          {item.checked !== null && (
            <Checkbox
              checked={item.checked}
              disabled
              className="mr-2 align-middle disabled:opacity-100"
              aria-label={item.checked ? 'done' : 'not done'}
            />
          )}
          {renderInline(item.text, `${key}-${i}`)}
        </li>
      ));
      return b.ordered ? (
        <ol key={key} start={b.start} className="list-decimal pl-6">
          {items}
        </ol>
      ) : (
        <ul key={key} className="list-disc pl-6">
          {items}
        </ul>
      );
    }
    case 'table':
      return (
        <div key={key} className="overflow-x-auto">
          <table className="border-collapse text-sm">
            <thead>
              <tr>
                {b.header.map((h, i) => (
                  <th key={i} className="border border-line bg-surface-2 px-2 py-1 text-left font-semibold">
                    {renderInline(h, `${key}-h${i}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {b.rows.map((r, ri) => (
                <tr key={ri}>
                  {b.header.map((_, ci) => (
                    <td key={ci} className="border border-line px-2 py-1">
                      {renderInline(r[ci] ?? '', `${key}-${ri}-${ci}`)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    case 'rule':
      return <hr key={key} className="border-line" />;
  }
}

export function Markdown({ source, className }: { source: string; className?: string }) {
  const blocks = parseBlocks(source);
  return (
    <div className={`flex flex-col gap-3 text-sm leading-relaxed break-words ${className ?? ''}`}>
      {blocks.map((b, i) => renderBlock(b, `b${i}`))}
    </div>
  );
}

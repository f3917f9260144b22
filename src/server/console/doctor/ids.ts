/**
 * Where the doctor's walk finds the ids and query values of its requests: ids seen in earlier answers (the first
 * organization, the first session of it…), a list item's own id, and a time range's bounds when the contract
 * requires one. Never invented ids: an operation with nothing to try is skipped, saying what was missing.
 */

interface Harvested {
  key: string;
  value: string;
  /** 0: a field of the answer or of a list item; higher: nested deeper. */
  rank: number;
  seq: number;
  /** The other ids of the object it was found in (to keep an org's session with that org). */
  context: Record<string, string>;
}

/** Path parameters whose ids the API writes under another field name. */
const PARAM_SYNONYMS: Record<string, string[]> = { agent_id: ['session_id'], session_id: ['agent_id'] };

export const pathParamNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** Ids seen in earlier answers, to fill the path parameters of later operations. */
export class IdPool {
  private entries: Harvested[] = [];
  private seq = 0;

  harvest(body: unknown): void {
    const visit = (node: unknown, rank: number, depth: number) => {
      if (depth > 5 || node === null || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        node.slice(0, 5).forEach((n) => visit(n, rank, depth + 1));
        return;
      }
      const obj = node as Record<string, unknown>;
      const context: Record<string, string> = {};
      for (const [k, v] of Object.entries(obj)) {
        if (typeof v === 'string' && v !== '' && (k.endsWith('_id') || k === 'id')) context[k] = v;
      }
      for (const [k, v] of Object.entries(context)) {
        this.entries.push({ key: k, value: v, rank, seq: this.seq++, context });
      }
      for (const [k, v] of Object.entries(obj)) {
        if (v && typeof v === 'object') visit(v, k === 'items' && rank === 0 ? 0 : rank + 1, depth + 1);
      }
    };
    visit(body, 0, 0);
  }

  /**
   * Candidates for parameter `name`, best first: consistent with the ids already chosen, then the field of that
   * very name before a synonym or a `…_name` field, then the least nested, then the earliest seen.
   */
  candidates(name: string, chosen: Record<string, string>): string[] {
    const quality = (key: string) =>
      key === name ? 0 : (PARAM_SYNONYMS[name] ?? []).includes(key) ? 1 : key.endsWith(`_${name}`) ? 2 : -1;
    const consistent = (e: Harvested) =>
      Object.entries(chosen).every(([k, v]) => e.context[k] === undefined || e.context[k] === v);
    const scored = this.entries
      .map((e) => ({ e, q: quality(e.key) }))
      .filter((x) => x.q >= 0)
      .sort(
        (a, b) =>
          Number(consistent(b.e)) - Number(consistent(a.e)) || a.q - b.q || a.e.rank - b.e.rank || a.e.seq - b.e.seq,
      );
    return [...new Set(scored.map((x) => x.e.value))];
  }
}

/** The id of a list item for parameter `name`: the field of that name, a synonym, `…_name`, or `id`. */
export function itemId(item: unknown, name: string, skip: readonly string[]): string | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === 'string' && o[k] !== '' ? (o[k] as string) : undefined);
  return (
    str(name) ??
    (PARAM_SYNONYMS[name] ?? []).map(str).find(Boolean) ??
    Object.keys(o)
      .filter((k) => k.endsWith(`_${name}`))
      .map(str)
      .find(Boolean) ??
    str('id') ??
    // Last resort: the item's own id is, by habit, its first `…_id` field (`scheduled_session_id`).
    Object.keys(o)
      .filter((k) => k.endsWith('_id') && !skip.includes(k))
      .map(str)
      .find(Boolean)
  );
}

/**
 * A value for a required query parameter that no answer carried: a time range's bounds (the last 7 days, in
 * Unix seconds), or nothing.
 */
export function guessQueryValue(name: string, nowS: number): string | undefined {
  if (/(^|_)(after|from|since|start)$/.test(name)) return String(nowS - 7 * 86_400);
  if (/(^|_)(before|to|until|end)$/.test(name)) return String(nowS);
  return undefined;
}

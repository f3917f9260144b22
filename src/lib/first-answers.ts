/**
 * The answers the console server rendered the first screen from, embedded in the page
 * (`<script type="application/json" id="first-answers">`, src/server/static.ts): the app's first request of each
 * of those URLs takes its answer from there, once, instead of asking again. Later requests of the same URL (a
 * refresh, a poll) ask.
 */
let answers: Map<string, unknown> | undefined;

function read(): Map<string, unknown> {
  const found = new Map<string, unknown>();
  const el = typeof document === 'undefined' ? null : document.getElementById('first-answers');
  if (!el) return found;
  el.remove();
  try {
    const parsed = JSON.parse(el.textContent ?? '{}') as Record<string, unknown>;
    for (const [url, body] of Object.entries(parsed)) found.set(url, body);
  } catch {
    // An unreadable block is no answer: the app asks.
  }
  return found;
}

/** The embedded answer of a GET of `url`, taken once; undefined when there is none (left). */
export function takeFirstAnswer(url: string): unknown {
  answers ??= read();
  if (answers.size === 0) return undefined;
  const body = answers.get(url);
  answers.delete(url);
  return body;
}

/**
 * The IP access list editor's rows as a reducer: one range per row, typed, normalized when the row is left,
 * removed, added (one, or many pasted at once: a paste into a row with several entries splits into rows), and
 * started again from a list. Pure, so the rules are tested without a browser.
 */
import { canonicalEntry, normalizationNote, splitRanges } from './ranges';

export interface EditorRow {
  id: number;
  text: string;
  /** Set when leaving the row rewrote it (host bits cleared…): says what changed. */
  note?: string;
}

export interface EditorState {
  rows: EditorRow[];
  nextId: number;
  /** The row to focus after the last action (a new row, or the row after a removal). */
  focus: number | null;
}

export type EditorAction =
  | { type: 'reset'; list: readonly string[] }
  | { type: 'changed'; id: number; text: string }
  | { type: 'left'; id: number }
  | { type: 'removed'; id: number }
  | { type: 'added'; texts: readonly string[]; after?: number }
  | { type: 'pasted'; id: number; text: string };

/** A row as it reads after being left: its canonical form, with a note when that differs. */
function normalized(row: EditorRow): EditorRow {
  const canonical = canonicalEntry(row.text);
  if (canonical === null || canonical === row.text.trim()) {
    return row.text === row.text.trim() ? row : { ...row, text: row.text.trim() };
  }
  return { ...row, text: canonical, note: normalizationNote(row.text, canonical) };
}

export function startEditor(list: readonly string[]): EditorState {
  const rows = list.map((text, i) => ({ id: i + 1, text }));
  return { rows, nextId: rows.length + 1, focus: null };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'reset':
      return startEditor(action.list);
    case 'changed':
      return {
        ...state,
        focus: null,
        rows: state.rows.map((r) => (r.id === action.id ? { id: r.id, text: action.text } : r)),
      };
    case 'left':
      return { ...state, focus: null, rows: state.rows.map((r) => (r.id === action.id ? normalized(r) : r)) };
    case 'removed': {
      const at = state.rows.findIndex((r) => r.id === action.id);
      if (at === -1) return state;
      const rows = state.rows.filter((r) => r.id !== action.id);
      return { ...state, rows, focus: (rows[at] ?? rows[at - 1])?.id ?? null };
    }
    case 'added': {
      const texts = action.texts.length > 0 ? action.texts : [''];
      const fresh = texts.map((text, i) => normalized({ id: state.nextId + i, text }));
      const at = action.after === undefined ? -1 : state.rows.findIndex((r) => r.id === action.after);
      const rows =
        at === -1 ? [...state.rows, ...fresh] : [...state.rows.slice(0, at + 1), ...fresh, ...state.rows.slice(at + 1)];
      return { rows, nextId: state.nextId + fresh.length, focus: fresh[fresh.length - 1]!.id };
    }
    case 'pasted': {
      const pieces = splitRanges(action.text);
      const at = state.rows.findIndex((r) => r.id === action.id);
      if (at === -1 || pieces.length === 0) return state;
      const row = state.rows[at]!;
      // Into an empty row: the first entry fills it; into a row that holds one already: every entry after it.
      const empty = row.text.trim() === '';
      const head = empty ? normalized({ id: row.id, text: pieces[0]! }) : row;
      const rest = empty ? pieces.slice(1) : pieces;
      const fresh = rest.map((text, i) => normalized({ id: state.nextId + i, text }));
      return {
        rows: [...state.rows.slice(0, at), head, ...fresh, ...state.rows.slice(at + 1)],
        nextId: state.nextId + fresh.length,
        focus: (fresh[fresh.length - 1] ?? head).id,
      };
    }
  }
}

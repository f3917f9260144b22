/**
 * The characters a name people read may not hold, for every name the contract takes (service users, attachment
 * file names): C0 and C1 control characters (NUL, line breaks, escape…) and the invisible marks that change the
 * direction text is shown in (U+200E/U+200F, U+061C, the embeddings and overrides U+202A–U+202E, the isolates
 * U+2066–U+2069). A control character can cut a name short or forge a line in a log or an export; a direction
 * mark makes a name show as something it is not ("invoice‮fdp.exe" reads "invoiceexe.pdf"). Refused, never
 * silently removed, so what is stored is what was typed, and the message says which character and where.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** What people call the characters they are most likely to meet. */
const NAMES: Record<number, string> = {
  0x00: 'a NUL character',
  0x09: 'a tab',
  0x0a: 'a line break',
  0x0d: 'a carriage return',
  0x1b: 'an escape character',
  0x7f: 'a delete character',
  0x061c: 'an Arabic letter mark',
  0x200e: 'a left-to-right mark',
  0x200f: 'a right-to-left mark',
  0x202a: 'a left-to-right embedding',
  0x202b: 'a right-to-left embedding',
  0x202c: 'a pop-directional-formatting character',
  0x202d: 'a left-to-right override',
  0x202e: 'a right-to-left override',
  0x2066: 'a left-to-right isolate',
  0x2067: 'a right-to-left isolate',
  0x2068: 'a first-strong isolate',
  0x2069: 'a pop-directional-isolate character',
};

/** The first character of `value` a name may not hold, with its 1-based position, or null when there is none. */
export function unsafeNameCharacter(value: string): { position: number; codePoint: string; what: string } | null {
  const m = UNSAFE.exec(value);
  if (!m) return null;
  const code = m[0].charCodeAt(0);
  return {
    // In characters as people count them (a character beyond U+FFFF counts once).
    position: [...value.slice(0, m.index)].length + 1,
    codePoint: `U+${code.toString(16).toUpperCase().padStart(4, '0')}`,
    what: NAMES[code] ?? (code <= 0x9f ? 'a control character' : 'a text-direction character'),
  };
}

/**
 * Why `value` cannot be the field labelled `label` ("Name", "File name"), or null when it may: "Name contains a
 * right-to-left override (U+202E) at character 4; …".
 */
export function unsafeNameMessage(label: string, value: string): string | null {
  const found = unsafeNameCharacter(value);
  if (!found) return null;
  return `${label} contains ${found.what} (${found.codePoint}) at character ${found.position}; a name cannot hold control characters or characters that change the direction of the text`;
}

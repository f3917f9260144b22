/**
 * Pasted lists (invitations, IdP group names): the text an admin pastes, read into entries before anything is
 * sent, each checked with the contract's own item schema. Repeats are flagged and sent once; malformed entries
 * are flagged and stop the form (the API would refuse the whole request). The request body is built from the
 * same reading, so what the preview shows is what is sent.
 */
import type { z } from 'zod';
import { InviteEmail, MEMBER_LIMITS } from '@/api/operations/members';
import { IDP_GROUP_LIMITS, IdpGroupName } from '@/api/operations/idp-groups';

export interface PastedEntry {
  /** As pasted (trimmed). */
  text: string;
  /** 1-based line of the paste it came from. */
  line: number;
  /** The value the API gets (normalised by the schema), or the text when it is malformed. */
  value: string;
  /** Why it cannot be sent. */
  problem?: string;
  /** The entry it repeats (index in `entries`): it is sent once. */
  repeats?: number;
}

export interface PastedList {
  entries: PastedEntry[];
  /** What is sent: every entry except repeats, in order (malformed ones included, so the schema refuses them). */
  sent: string[];
  malformed: PastedEntry[];
  repeated: PastedEntry[];
  /** Entries that can be sent. */
  valid: number;
}

interface ReadOptions {
  /** Splits one line into items. */
  split: (line: string) => string[];
  schema: z.ZodType<string, string>;
  /** Two values that are the same entry have the same key. */
  key: (value: string) => string;
}

export function readPastedList(text: string, { split, schema, key }: ReadOptions): PastedList {
  const entries: PastedEntry[] = [];
  const firstOf = new Map<string, number>();
  text.split(/\r\n|\r|\n/).forEach((lineText, i) => {
    for (const raw of split(lineText)) {
      const item = raw.trim();
      if (!item) continue;
      const parsed = schema.safeParse(item);
      const entry: PastedEntry = parsed.success
        ? { text: item, line: i + 1, value: parsed.data }
        : { text: item, line: i + 1, value: item, problem: parsed.error.issues[0]?.message ?? 'not valid' };
      const k = key(entry.value);
      const first = firstOf.get(k);
      if (first !== undefined) entry.repeats = first;
      else firstOf.set(k, entries.length);
      entries.push(entry);
    }
  });
  const kept = entries.filter((e) => e.repeats === undefined);
  return {
    entries,
    sent: kept.map((e) => e.value),
    malformed: kept.filter((e) => e.problem !== undefined),
    repeated: entries.filter((e) => e.repeats !== undefined),
    valid: kept.filter((e) => e.problem === undefined).length,
  };
}

// ---------------------------------------------------------------- invitations

/** "Ada Lovelace <ada@example.com>" → the address in the angle brackets. */
const NAMED = /<([^<>]*)>/;

/**
 * One line of an invitation paste: addresses separated by commas, semicolons or spaces, each one bare or as
 * `Name <address>` (as mail programs copy them; a quoted name may hold commas).
 */
export function splitInviteLine(line: string): string[] {
  return line
    .replace(/"[^"]*"/g, ' ')
    .split(/[,;]/)
    .flatMap((chunk) => {
      const named = NAMED.exec(chunk);
      return named ? [named[1] ?? ''] : chunk.split(/\s+/);
    })
    .map((s) => s.trim())
    .filter(Boolean);
}

export function readInvitations(text: string): PastedList {
  return readPastedList(text, { split: splitInviteLine, schema: InviteEmail, key: (v) => v.toLowerCase() });
}

export const INVITATIONS_LIMIT = MEMBER_LIMITS.invitationsPerCall;

// ---------------------------------------------------------------- IdP groups

/** One IdP group name per line (a name may hold commas and spaces). */
export function readIdpGroupNames(text: string): PastedList {
  return readPastedList(text, { split: (line) => [line], schema: IdpGroupName, key: (v) => v.toLowerCase() });
}

export const IDP_GROUPS_LIMIT = IDP_GROUP_LIMITS.perRegistration;

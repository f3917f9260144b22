/**
 * Reading settings from the environment and `.env` (the environment wins), shared by the console server's
 * configuration and the sandbox's: every problem is collected as one line, so a start is refused with all
 * of them at once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';

/** Reads `.env` from the working directory, if any. */
export function readDotEnv(cwd = process.cwd()): Record<string, string> {
  const file = resolve(cwd, '.env');
  if (!existsSync(file)) return {};
  return parseEnv(readFileSync(file, 'utf8')) as Record<string, string>;
}

/** Loopback port of the sandbox (`SANDBOX_PORT`), read by the sandbox alone and by the console that embeds it. */
export const DEFAULT_SANDBOX_PORT = 8787;

export interface EnvReader {
  /** The trimmed value, or undefined when unset or empty. */
  get(name: string): string | undefined;
  /** An integer setting within bounds; a bad value is a problem and the fallback is used. */
  int(name: string, fallback: number, min: number, max: number): number;
  /** One line per bad setting. */
  problems: string[];
}

export function envReader(env: NodeJS.ProcessEnv, dotEnv: Record<string, string> = readDotEnv()): EnvReader {
  const merged: Record<string, string | undefined> = { ...dotEnv, ...env };
  const problems: string[] = [];
  const get = (name: string) => {
    const v = merged[name]?.trim();
    return v === '' ? undefined : v;
  };
  return {
    get,
    problems,
    int(name, fallback, min, max) {
      const raw = get(name);
      if (raw === undefined) return fallback;
      if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
        problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
        return fallback;
      }
      return Number(raw);
    },
  };
}

/**
 * `npm run config -- export | plan | apply | validate | schema`: the enterprise's configuration as code, from a
 * terminal, through a running console (so locks, history and who applied what are the same as on the
 * Configuration screen). The console is CONSOLE_URL (default http://localhost:$PORT, PORT default 8080), signed in
 * with CONSOLE_ACCESS_TOKEN as a Bearer token when it asks for one.
 *
 *   npm run config -- export [--out FILE]            live state as a document (plan then reports no changes)
 *   npm run config -- plan FILE [--prune] [--json] [--out PLAN.json]
 *                                                    exit 0: no changes, 2: changes, 1: error
 *   npm run config -- apply PLAN.json                apply exactly a saved plan (refused if live state moved)
 *   npm run config -- apply FILE --yes [--prune]     plan, show it, and apply exactly that plan
 *   npm run config -- validate FILE                  errors with file, line and path; nothing is read or applied
 *   npm run config -- schema [--out FILE]            the document's JSON Schema (for editors)
 *
 * Secrets' values are read from this process's environment (the variables the document names in
 * `value_from_env`) and sent only inside the apply request; they are never printed or written to a plan file.
 * Ctrl-C during an apply stops it after the step under way and prints what was done.
 */
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ConfigChange, ConfigPlan, ConfigProgress, ConfigReport } from '../api/console/configuration';
import { CONFIG_RESOURCE_LABELS } from '../api/console/configuration';
import type { DocumentError } from '../api/config-document/parse';

const USAGE = `Usage: npm run config -- <command> [options]

  export [--out FILE]                      write live state as a document (stdout without --out)
  plan FILE [--prune] [--json] [--out PLAN.json]
                                           show every change; exit 0 no changes, 2 changes, 1 error
  apply PLAN.json                          apply a plan saved by plan --out (refused if live state moved)
  apply FILE --yes [--prune] [--json]      plan FILE and apply exactly that plan
  validate FILE [--json]                   check a document: errors with file, line and path
  schema [--out FILE]                      the document's JSON Schema

The console: CONSOLE_URL (default http://localhost:$PORT, PORT default 8080); CONSOLE_ACCESS_TOKEN when it asks
for sign-in. Secrets' values come from the environment variables the document names (value_from_env).`;

export interface CliIo {
  argv: string[];
  env: Record<string, string | undefined>;
  out: (text: string) => void;
  err: (text: string) => void;
  /** Resolves when the user asks to stop (Ctrl-C); the CLI's main wires SIGINT. */
  interrupted?: Promise<void>;
  pollMs?: number;
}

class CliError extends Error {}

interface PlanFile {
  kind: 'agent-platform-config-plan';
  file: string;
  document: string;
  prune: boolean;
  plan_id: string;
  fingerprint: string;
  counts: ConfigPlan['counts'];
  changes: ConfigChange[];
  secret_env: string[];
}

/** What the command line asked for, after its flags and options are taken out. */
interface Options {
  /** The arguments left: the command's own (its FILE). */
  args: string[];
  json: boolean;
  prune: boolean;
  yes: boolean;
  outFile: string | undefined;
}

type ConsoleApi = ReturnType<typeof client>;

export async function runConfigCli(io: CliIo): Promise<number> {
  const args = [...io.argv];
  const flag = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return false;
    args.splice(i, 1);
    return true;
  };
  const option = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const v = args[i + 1];
    if (!v || v.startsWith('--')) throw new CliError(`${name} needs a value`);
    args.splice(i, 2);
    return v;
  };
  try {
    if (flag('--help') || flag('-h') || args.length === 0) {
      io.out(USAGE);
      return args.length === 0 && io.argv.length === 0 ? 1 : 0;
    }
    const opts: Options = {
      args,
      json: flag('--json'),
      prune: flag('--prune'),
      yes: flag('--yes'),
      outFile: option('--out'),
    };
    const command = args.shift();
    const unknown = args.filter((a) => a.startsWith('-'));
    if (unknown.length) throw new CliError(`Unknown option ${unknown.join(', ')}\n\n${USAGE}`);
    const consoleApi = client(io.env);
    switch (command) {
      case 'schema':
        return await schemaCommand(io, consoleApi, opts);
      case 'export':
        return await exportCommand(io, consoleApi, opts);
      case 'validate':
        return await validateCommand(io, consoleApi, opts);
      case 'plan':
        return await planCommand(io, consoleApi, opts);
      case 'apply':
        return await applyCommand(io, consoleApi, opts);
      default:
        throw new CliError(`Unknown command ${command ?? ''}\n\n${USAGE}`);
    }
  } catch (err) {
    if (err instanceof ProblemError) {
      const errors = (err.body.document_errors as DocumentError[] | undefined) ?? null;
      if (errors) printErrors(io, errors, Number(err.body.more_errors ?? 0));
      else io.err(String(err.body.detail ?? err.message));
      return 1;
    }
    io.err(err instanceof Error ? err.message : String(err));
    return 1;
  }
}

async function schemaCommand(io: CliIo, consoleApi: ConsoleApi, { outFile }: Options) {
  const schema = await consoleApi.get('/console/configuration/schema');
  await emit(io, outFile, `${JSON.stringify(schema, null, 2)}\n`);
  return 0;
}

async function exportCommand(io: CliIo, consoleApi: ConsoleApi, { outFile }: Options) {
  const exported = (await consoleApi.get('/console/configuration/export')) as { document: string; resources: number };
  await emit(io, outFile, exported.document);
  if (outFile)
    io.err(
      `Wrote ${exported.resources} resources to ${outFile}. Secrets are named by key; their values are not exported.`,
    );
  return 0;
}

async function validateCommand(io: CliIo, consoleApi: ConsoleApi, { args, json }: Options) {
  const { file, text } = await readDocument(args.shift());
  const v = (await consoleApi.post('/console/configuration/validate', { document: text, file })) as {
    valid: boolean;
    errors: DocumentError[];
    more_errors: number;
    resources: number;
  };
  if (json) io.out(JSON.stringify(v, null, 2));
  else if (v.valid) io.out(`${file}: valid (${v.resources} resources)`);
  else printErrors(io, v.errors, v.more_errors);
  return v.valid ? 0 : 1;
}

/** Exit 0 when there is nothing to change, 2 when there is (so scripts can tell drift). */
async function planCommand(io: CliIo, consoleApi: ConsoleApi, { args, json, prune, outFile }: Options) {
  const { file, text } = await readDocument(args.shift());
  const plan = (await consoleApi.post('/console/configuration/plan', { document: text, file, prune })) as ConfigPlan;
  if (json) io.out(JSON.stringify(plan, null, 2));
  else printPlan(io, file, plan);
  if (outFile) {
    const saved: PlanFile = {
      kind: 'agent-platform-config-plan',
      file,
      document: text,
      prune,
      plan_id: plan.plan_id,
      fingerprint: plan.fingerprint,
      counts: plan.counts,
      changes: plan.changes,
      secret_env: plan.secret_env,
    };
    await writeFile(outFile, `${JSON.stringify(saved, null, 2)}\n`);
    io.err(`Saved the plan to ${outFile}: apply it with npm run config -- apply ${outFile}`);
  }
  return plan.changes.length === 0 ? 0 : 2;
}

/** What an apply sends: the reviewed document and plan, and the environment variables its secrets need. */
interface ApplyRequest {
  document: string;
  file: string;
  prune: boolean;
  plan_id: string;
  secretEnv: string[];
}

async function applyCommand(io: CliIo, consoleApi: ConsoleApi, opts: Options) {
  const request = await applyRequestOf(io, consoleApi, opts);
  if (!request) return 1;
  const missing = request.secretEnv.filter((name) => !io.env[name]);
  if (missing.length > 0) {
    throw new CliError(
      `The plan creates secrets whose values come from the environment; set ${missing.join(', ')} and apply again. Nothing was applied.`,
    );
  }
  const secret_values = Object.fromEntries(request.secretEnv.map((name) => [name, io.env[name]!]));
  const applyId = randomUUID().replace(/-/g, '');
  const progress = followApply(io, consoleApi, applyId, opts.json);
  let report: ConfigReport;
  try {
    report = (await consoleApi.post('/console/configuration/apply', {
      document: request.document,
      file: request.file,
      prune: request.prune,
      plan_id: request.plan_id,
      secret_values,
      apply_id: applyId,
    })) as ConfigReport;
  } finally {
    await progress.stop();
  }
  if (opts.json) io.out(JSON.stringify(report, null, 2));
  else {
    report.steps.forEach((s, i) => {
      if (!progress.shown.has(i)) io.err(progressLine(s));
    });
    io.out(
      `${report.message}${report.revision_id ? ` (revision ${report.revision_id})` : ''}${report.waited_s ? `; waited ${report.waited_s} s for the rate limit` : ''}`,
    );
  }
  return report.status === 'applied' ? 0 : 1;
}

/**
 * A plan saved by `plan --out` is applied as saved; a document is planned and shown first, and applied only
 * with --yes (null: nothing to apply without it).
 */
async function applyRequestOf(
  io: CliIo,
  consoleApi: ConsoleApi,
  { args, json, prune, yes }: Options,
): Promise<ApplyRequest | null> {
  const { file, text } = await readDocument(args.shift());
  let saved: PlanFile | null = null;
  try {
    const parsed = JSON.parse(text) as Partial<PlanFile>;
    if (parsed && parsed.kind === 'agent-platform-config-plan') saved = parsed as PlanFile;
  } catch {
    // a document, not a plan file
  }
  if (saved) {
    if (prune && !saved.prune) throw new CliError('--prune is part of the plan: make the plan with plan --prune --out');
    if (!json) io.err(`Applying the plan saved in ${file} (${describeCounts(saved.counts)}).`);
    return {
      document: saved.document,
      file: saved.file,
      prune: saved.prune,
      plan_id: saved.plan_id,
      secretEnv: saved.secret_env,
    };
  }
  const plan = (await consoleApi.post('/console/configuration/plan', { document: text, file, prune })) as ConfigPlan;
  if (!json) printPlan(io, file, plan);
  if (plan.changes.length > 0 && !yes) {
    io.err(
      'Nothing was applied. Review the plan above, then apply it with --yes (or save it with plan --out and apply the file).',
    );
    return null;
  }
  return { document: text, file, prune, plan_id: plan.plan_id, secretEnv: plan.secret_env };
}

const progressLine = (s: ConfigProgress['steps'][number]) =>
  `${s.status === 'applied' ? '✓' : s.status === 'failed' ? '✗' : '·'} ${stepLine(s)}${s.error ? `: ${s.error}` : ''}`;

/**
 * Prints each step as the console reports it while the apply runs (best effort: the apply's own answer is the
 * report), and cancels the apply on Ctrl-C. `stop()` ends the polling; `shown` are the steps printed.
 */
function followApply(io: CliIo, consoleApi: ConsoleApi, applyId: string, json: boolean) {
  let done = false;
  const shown = new Set<number>();
  const follow = async () => {
    while (!done) {
      await new Promise((r) => setTimeout(r, io.pollMs ?? 400));
      if (done) break;
      try {
        const p = (await consoleApi.get(`/console/configuration/applies/${applyId}`)) as ConfigProgress;
        p.steps.forEach((s, i) => {
          if (shown.has(i) || json) return;
          shown.add(i);
          io.err(progressLine(s));
        });
        if (p.waiting_s > 0 && !json) io.err(`  waiting ${p.waiting_s} s for the API's rate limit…`);
      } catch {
        // progress is best effort; the apply's own answer is the report
      }
    }
  };
  void io.interrupted?.then(async () => {
    if (done) return;
    io.err('Stopping after the step under way…');
    await consoleApi.post(`/console/configuration/applies/${applyId}/cancel`, undefined).catch(() => undefined);
  });
  const following = follow();
  return {
    shown,
    async stop() {
      done = true;
      await following;
    },
  };
}

class ProblemError extends Error {
  constructor(readonly body: Record<string, unknown>) {
    super(String(body.detail ?? body.title ?? 'The console refused the request'));
  }
}

function client(env: Record<string, string | undefined>) {
  const base = (env.CONSOLE_URL ?? `http://localhost:${env.PORT ?? '8080'}`).replace(/\/+$/, '');
  const token = env.CONSOLE_ACCESS_TOKEN;
  async function call(method: string, path: string, body?: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: {
          accept: 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    } catch {
      throw new CliError(
        `No console answers at ${base}. Start one in another terminal with \`npm start\` (it serves on PORT, default 8080), or set CONSOLE_URL to a running console${token ? '' : ' (and CONSOLE_ACCESS_TOKEN when it asks for sign-in)'}.`,
      );
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      throw new CliError(
        `${base} answered ${res.status} with something that is not the console's JSON: is CONSOLE_URL a console?`,
      );
    }
    if (res.status === 401) {
      throw new CliError(
        token
          ? `The console at ${base} refused CONSOLE_ACCESS_TOKEN (401): set the token the console was started with.`
          : `The console at ${base} asks for sign-in (401): set CONSOLE_ACCESS_TOKEN to the token it was started with.`,
      );
    }
    if (!res.ok)
      throw new ProblemError((parsed as Record<string, unknown>) ?? { detail: `The console answered ${res.status}` });
    return parsed;
  }
  return { get: (path: string) => call('GET', path), post: (path: string, body: unknown) => call('POST', path, body) };
}

async function readDocument(path: string | undefined): Promise<{ file: string; text: string }> {
  if (!path) throw new CliError(`Name the document: npm run config -- plan FILE\n\n${USAGE}`);
  try {
    return { file: basename(path), text: await readFile(path, 'utf8') };
  } catch {
    throw new CliError(`Cannot read ${path}: no such file, or not readable`);
  }
}

async function emit(io: CliIo, outFile: string | undefined, text: string) {
  if (outFile) await writeFile(outFile, text);
  else io.out(text.replace(/\n$/, ''));
}

function printErrors(io: CliIo, errors: DocumentError[], more: number) {
  for (const e of errors) {
    io.err(
      `${e.file}${e.line ? `:${e.line}${e.column ? `:${e.column}` : ''}` : ''}: ${e.path ? `${e.path}: ` : ''}${e.message}`,
    );
  }
  if (more > 0) io.err(`… and ${more} more errors`);
  io.err(`${errors.length + more} error${errors.length + more === 1 ? '' : 's'}; nothing was applied.`);
}

const SIGN = { create: '+', update: '~', delete: '-' } as const;
const stepLine = (c: Pick<ConfigChange, 'action' | 'kind' | 'key' | 'organization'>) =>
  `${c.action} ${CONFIG_RESOURCE_LABELS[c.kind].toLowerCase()} ${c.key}${c.organization ? ` in ${c.organization}` : ''}`;

function describeCounts(c: ConfigPlan['counts']) {
  return `${c.create} to create, ${c.update} to update, ${c.delete} to delete${c.destructive ? ` (${c.destructive} destructive)` : ''}`;
}

function printPlan(io: CliIo, file: string, plan: ConfigPlan) {
  for (const w of plan.warnings) io.out(`warning: ${w}`);
  if (plan.changes.length === 0) {
    io.out(`${file}: no changes. Live state matches the document.`);
    return;
  }
  const groups = new Map<string, ConfigChange[]>();
  for (const c of plan.changes) {
    const g = c.organization ?? (c.kind === 'organization' ? c.key : '(enterprise)');
    groups.set(g, [...(groups.get(g) ?? []), c]);
  }
  for (const [group, changes] of groups) {
    const org = plan.organizations.find((o) => o.name === group);
    io.out(
      group === '(enterprise)'
        ? 'Enterprise'
        : `Organization ${group}${org?.include.length ? ` (includes ${org.include.join(', ')})` : ''}`,
    );
    for (const c of changes) {
      io.out(`  ${SIGN[c.action]} ${c.summary}${c.destructive ? '  [destructive]' : ''}`);
      for (const f of c.fields.slice(0, 6)) io.out(`      ${f.field}: ${f.before ?? '—'} → ${f.after ?? '—'}`);
    }
  }
  io.out(`Plan ${plan.plan_id}: ${describeCounts(plan.counts)}.`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let interrupt: () => void = () => undefined;
  const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
  let count = 0;
  process.on('SIGINT', () => {
    if (++count > 1) process.exit(130);
    interrupt();
  });
  void runConfigCli({
    argv: process.argv.slice(2),
    env: process.env,
    out: (t) => console.log(t),
    err: (t) => console.error(t),
    interrupted,
  }).then((code) => process.exit(code));
}

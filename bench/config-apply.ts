/**
 * Configuration as code: apply's throughput for a document of 1,000 resources against the sandbox — ten new
 * organizations, each with 50 knowledge notes and a set of 49 git permissions (520 steps: the organizations,
 * each note, each permission set through the guarded replace) — then a second plan, which must be empty.
 *
 *   npx tsx bench/config-apply.ts            (standalone: an in-process console on a fresh in-memory sandbox)
 *   benchConfigApply({ baseUrl })            (from bench/run.ts, against the console it started)
 */
import { stringify } from 'yaml';
import type { Figure } from './lib';

const ORGS = 10;
const NOTES = 50;
const PERMISSIONS = 49;

function documentOf(run: string): string {
  return stringify({
    version: 1,
    organizations: Array.from({ length: ORGS }, (_, i) => ({
      name: `Bench ${run} ${i + 1}`,
      notes: Array.from({ length: NOTES }, (_, j) => ({
        name: `Note ${j + 1}`,
        trigger: 'When benchmarking',
        body: `Body ${j + 1}`,
      })),
      git_permissions: Array.from({ length: PERMISSIONS }, (_, j) => ({
        connection: 'GitHub — acme-corp',
        repo_path: `acme-corp/bench-${j + 1}`,
      })),
    })),
  });
}

async function post(baseUrl: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${String(json.detail)}`);
  return json;
}

export async function benchConfigApply({ baseUrl, token }: { baseUrl: string; token?: string }): Promise<Figure[]> {
  const document = documentOf(Date.now().toString(36));
  const t0 = performance.now();
  const plan = (await post(baseUrl, '/console/configuration/plan', { document, file: 'bench.yaml' }, token)) as {
    plan_id: string;
    resources: number;
    changes: unknown[];
  };
  const t1 = performance.now();
  const report = (await post(
    baseUrl,
    '/console/configuration/apply',
    { document, file: 'bench.yaml', plan_id: plan.plan_id },
    token,
  )) as {
    status: string;
    applied: number;
    waited_s: number;
  };
  const t2 = performance.now();
  if (report.status !== 'applied') throw new Error(`The apply ended ${report.status}`);
  const again = (await post(baseUrl, '/console/configuration/plan', { document, file: 'bench.yaml' }, token)) as {
    changes: unknown[];
  };
  const t3 = performance.now();
  if (again.changes.length !== 0) throw new Error(`A second plan still has ${again.changes.length} changes`);
  const applyS = (t2 - t1) / 1000;
  return [
    { name: 'Configuration: plan of 1,000 resources', value: Math.round(t1 - t0), unit: 'ms' },
    {
      name: 'Configuration: apply of 1,000 resources',
      value: Math.round(t2 - t1),
      unit: 'ms',
      note: `${report.applied} steps; ${Math.round(plan.resources / applyS)} resources/s, ${Math.round(report.applied / applyS)} steps/s; waited ${report.waited_s} s for 429s`,
    },
    { name: 'Configuration: second plan (no changes)', value: Math.round(t3 - t2), unit: 'ms' },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startTestConsole } = await import('../src/test/harness');
  const con = await startTestConsole({ sandbox: { tickMs: 60_000, validateResponses: false } });
  try {
    for (const f of await benchConfigApply({ baseUrl: con.url }))
      console.log(`${f.name}: ${f.value} ${f.unit}${f.note ? ` (${f.note})` : ''}`);
  } finally {
    await con.close();
  }
}

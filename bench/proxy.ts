/** The proxy's cost: latency it adds (p50, p99) and its throughput against calling the sandbox directly. */
import { load, percentile, type Figure } from './lib';

export async function benchProxy({ baseUrl, sandboxUrl }: { baseUrl: string; sandboxUrl: string }): Promise<Figure[]> {
  const path = '/v3/enterprise/organizations?first=5';
  const direct = (n: number) => load(sandboxUrl + path, { authorization: 'Bearer cog_sandbox_admin' }, n, 8);
  const proxied = (n: number) => load(`${baseUrl}/api${path}`, { accept: 'application/json' }, n, 8);
  await direct(300); // warm up both paths (JIT, keep-alive sockets)
  await proxied(300);
  const d = await direct(3000);
  const p = await proxied(3000);
  if (d.errors || p.errors) throw new Error(`errors during the proxy bench: direct ${d.errors}, proxied ${p.errors}`);
  const round = (n: number) => Math.round(n * 100) / 100;
  return [
    { name: 'direct p50', value: round(percentile(d.latencies, 50)), unit: 'ms' },
    { name: 'direct p99', value: round(percentile(d.latencies, 99)), unit: 'ms' },
    { name: 'proxied p50', value: round(percentile(p.latencies, 50)), unit: 'ms' },
    { name: 'proxied p99', value: round(percentile(p.latencies, 99)), unit: 'ms' },
    {
      name: 'proxy added latency p50',
      value: round(percentile(p.latencies, 50) - percentile(d.latencies, 50)),
      unit: 'ms',
    },
    {
      name: 'proxy added latency p99',
      value: round(percentile(p.latencies, 99) - percentile(d.latencies, 99)),
      unit: 'ms',
    },
    { name: 'direct throughput', value: Math.round(d.rps), unit: 'req/s', note: '8 concurrent, keep-alive' },
    {
      name: 'proxied throughput',
      value: Math.round(p.rps),
      unit: 'req/s',
      note: `${Math.round((p.rps / d.rps) * 100)} % of direct`,
    },
  ];
}

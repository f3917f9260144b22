#!/usr/bin/env node
// A small round-robin HTTP load balancer for trying console replicas on one machine (README: "Several replicas
// on PostgreSQL"); not for production (use nginx, HAProxy or your platform's: deploy/nginx.conf). It asks each
// replica's /console/readyz (its store and the API both reachable; LB_HEALTH_PATH to change it) every 2 s and
// sends requests only to those that answer 200; a GET or HEAD whose replica cannot be reached is tried on the
// next one.
//
//   node scripts/load-balancer.mjs --port 8080 http://127.0.0.1:8081 http://127.0.0.1:8082
//   (or LB_PORT=8080 LB_BACKENDS=http://127.0.0.1:8081,http://127.0.0.1:8082 node scripts/load-balancer.mjs)
import { createServer, request } from 'node:http';

const args = process.argv.slice(2);
const portArg = args.indexOf('--port');
const port = Number(portArg >= 0 ? args[portArg + 1] : (process.env.LB_PORT ?? 8080));
const host = process.env.LB_HOST ?? '127.0.0.1';
const urls = [
  ...args.filter((_, i) => portArg < 0 || (i !== portArg && i !== portArg + 1)),
  ...(process.env.LB_BACKENDS ?? '').split(','),
]
  .map((s) => s.trim())
  .filter(Boolean);
if (urls.length === 0 || !Number.isInteger(port)) {
  console.error('usage: node scripts/load-balancer.mjs --port 8080 http://127.0.0.1:8081 http://127.0.0.1:8082');
  process.exit(2);
}

const backends = urls.map((u) => ({ url: new URL(u), healthy: true, state: 'unknown' }));
let next = 0;

function check(b) {
  const req = request(
    {
      host: b.url.hostname,
      port: b.url.port,
      path: process.env.LB_HEALTH_PATH ?? '/console/readyz',
      // The replica answers its own loopback names on its own port.
      headers: { host: `localhost:${b.url.port}` },
      timeout: 3_000,
    },
    (res) => {
      res.resume();
      setState(b, res.statusCode === 200, `HTTP ${res.statusCode}`);
    },
  );
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', (err) => setState(b, false, err.code ?? err.message));
  req.end();
}

function setState(b, healthy, why) {
  if (b.healthy !== healthy || b.state === 'unknown') {
    console.log(`[lb] ${b.url.origin} ${healthy ? 'healthy' : `out of rotation (${why})`}`);
  }
  b.healthy = healthy;
  b.state = why;
}

setInterval(() => backends.forEach(check), 2_000).unref();
backends.forEach(check);

/** The healthy backends, starting at the next in turn (all of them when none is healthy: let them answer). */
function order() {
  const live = backends.filter((b) => b.healthy);
  const pool = live.length > 0 ? live : backends;
  const start = next++ % pool.length;
  return [...pool.slice(start), ...pool.slice(0, start)];
}

function forward(req, res, candidates) {
  const b = candidates[0];
  const retryable = (req.method === 'GET' || req.method === 'HEAD') && candidates.length > 1;
  const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
  const up = request(
    {
      host: b.url.hostname,
      port: b.url.port,
      method: req.method,
      path: req.url,
      headers: { ...req.headers, 'x-forwarded-for': forwardedFor },
    },
    (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    },
  );
  up.on('error', (err) => {
    if (res.headersSent) return res.destroy();
    setState(b, false, err.code ?? err.message);
    if (retryable) return forward(req, res, candidates.slice(1));
    const body = JSON.stringify({
      type: 'about:blank',
      title: 'Bad Gateway',
      status: 502,
      detail: 'No console replica could be reached',
    });
    res.writeHead(502, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  if (req.method === 'GET' || req.method === 'HEAD') up.end();
  else req.pipe(up);
}

const server = createServer((req, res) => forward(req, res, order()));
server.listen(port, host, () => {
  console.log(`[lb] http://${host === '127.0.0.1' ? 'localhost' : host}:${port} → ${urls.join(', ')}`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

/**
 * The fast upstream every proxy is measured in front of: a fixed 2 KB JSON page from `node:http`, in a worker
 * thread of the bench process, so it neither shares a thread with the load generator nor counts in the CPU
 * of the proxy under test.
 */
import { Worker } from 'node:worker_threads';

/** An organizations page of about 2 KB, as the API answers it. */
export function fixedPage(): string {
  const items = [];
  for (let i = 0; ; i++) {
    items.push({
      org_id: `org-${String(i).padStart(4, '0')}-5f0c2a9e`,
      name: `Organization ${i}`,
      slug: `organization-${i}`,
      created_at: 1_700_000_000 + i * 86_400,
      member_count: 10 + i,
    });
    const text = JSON.stringify({ items, end_cursor: null, has_next_page: false });
    if (text.length >= 2048) return text;
  }
}

const WORKER = `
const http = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const body = Buffer.from(workerData.body);
const server = http.createServer((req, res) => {
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
// The first free port of the range given.
let port = workerData.from;
server.on('error', (err) => {
  if (err.code !== 'EADDRINUSE' || port >= workerData.to) throw err;
  server.listen(++port, '127.0.0.1');
});
server.on('listening', () => parentPort.postMessage(server.address().port));
server.listen(port, '127.0.0.1');
parentPort.on('message', (m) => { if (m === 'close') server.close(() => process.exit(0)); });
`;

export function startFastUpstream(ports: {
  from: number;
  to: number;
}): Promise<{ url: string; port: number; bytes: number; close(): Promise<void> }> {
  const body = fixedPage();
  const worker = new Worker(WORKER, { eval: true, workerData: { body, ...ports } });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (port: number) =>
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        bytes: Buffer.byteLength(body),
        close: () =>
          new Promise((done) => {
            worker.once('exit', () => done());
            worker.postMessage('close');
          }),
      }),
    );
  });
}

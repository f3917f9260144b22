/**
 * The yardstick: a bare `node:http` proxy (`http.request` with a keep-alive agent, the credential added, bodies
 * piped both ways), with none of the console's rules. The console's proxy is measured against it.
 */
import http from 'node:http';
import { listenInRange } from '../lib';

export async function startBareProxy(
  upstreamUrl: string,
  apiKey: string,
  ports: { from: number; to: number },
): Promise<{ port: number; close(): void }> {
  const base = new URL(upstreamUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, host: base.host, authorization: `Bearer ${apiKey}` };
    const upReq = http.request(
      {
        hostname: base.hostname,
        port: base.port,
        method: req.method,
        path: (req.url ?? '/').replace(/^\/api/, ''),
        headers,
        agent,
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    upReq.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(upReq);
  });
  const port = await listenInRange(server, ports.from, ports.to);
  return {
    port,
    close: () => {
      agent.destroy();
      server.close();
    },
  };
}

/** Serves the built app from `dist/`: hashed assets cached for a year, deep links answered with index.html. */
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
} as const;

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'";

export function createStaticHandler(distDir: string) {
  const root = normalize(distDir + sep);
  const indexPath = join(distDir, 'index.html');
  let indexHtml: Buffer | undefined;
  const index = () => (indexHtml ??= readFileSync(indexPath));

  return (req: IncomingMessage, res: ServerResponse, pathname: string): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method Not Allowed');
      return;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      decoded = '/';
    }
    const file = normalize(join(distDir, decoded));
    const inside = file.startsWith(root);
    if (inside && decoded !== '/' && existsSync(file) && statSync(file).isFile()) {
      const immutable = decoded.startsWith('/assets/');
      res.writeHead(200, {
        ...SECURITY_HEADERS,
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'content-length': statSync(file).size,
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
      return;
    }
    // A missing file with an extension is a missing asset, not a deep link.
    if (extname(decoded) !== '') {
      res.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    const html = index();
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': TYPES['.html']!,
      'content-length': html.length,
      'cache-control': 'no-cache',
      'content-security-policy': CSP,
    });
    res.end(req.method === 'HEAD' ? undefined : html);
  };
}

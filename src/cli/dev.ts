/** `npm run dev`: the console server with Vite's hot-reloading middleware in place of the built app. */
import { createServer as createVite } from 'vite';
import { ConfigError, loadConfig } from '../server/config';
import { startConsole } from './start';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
const vite = await createVite({ server: { middlewareMode: true }, appType: 'spa' });
const started = await startConsole(config, {
  serveApp: (req, res) => vite.middlewares(req, res),
  log: (line) => console.log(line),
});
console.log(`Agent Platform Console (dev, hot reload): ${started.url}`);
if (config.consoleAuth === 'on') console.log(`  sign in (one-time link): ${started.url}${started.signInLink()}`);
if (started.sandbox) console.log(`  upstream: embedded sandbox at ${started.sandbox.url}`);

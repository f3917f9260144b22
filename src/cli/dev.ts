/** `npm run dev`: the console server with Vite's hot-reloading middleware in place of the built app. */
import { createServer as createVite } from 'vite';
import { loadConfigOrExit, startConsole } from './start';

const config = loadConfigOrExit();
const vite = await createVite({ server: { middlewareMode: true }, appType: 'spa' });
const started = await startConsole(config, {
  serveApp: (req, res) => vite.middlewares(req, res),
  log: (line) => console.log(line),
});
console.log(`Agent Platform Console (dev, hot reload): ${started.url}`);
if (config.consoleAuth === 'on') console.log(`  sign in (one-time link): ${started.url}${started.signInLink()}`);
if (started.sandbox) console.log(`  upstream: embedded sandbox at ${started.sandbox.url}`);

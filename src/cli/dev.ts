/** `npm run dev`: the console server with Vite's hot-reloading middleware in place of the built app. */
import { createServer as createVite } from 'vite';
import { envReader } from '../node/env';
import { describeRequestLog, filterRequestLog, requestLogMode } from '../server/log';
import { loadConfigOrExit, startConsole } from './start';

const config = loadConfigOrExit();
const logMode = requestLogMode(envReader(process.env).get('LOG_REQUESTS'), process.argv, process.stdout.isTTY === true);
if (logMode.problem !== undefined) {
  console.error(logMode.problem);
  process.exit(1);
}
const vite = await createVite({ server: { middlewareMode: true }, appType: 'spa' });
const started = await startConsole(config, {
  serveApp: (req, res) => vite.middlewares(req, res),
  log: filterRequestLog(logMode.mode, (line) => console.log(line)),
});
console.log(`Agent Platform Console (dev, hot reload): ${started.url}`);
if (config.consoleAuth === 'on') console.log(`  sign in (one-time link): ${started.url}${started.signInLink()}`);
if (started.sandbox) console.log(`  upstream: embedded sandbox at ${started.sandbox.url}`);
console.log(`  ${describeRequestLog(logMode.mode)}`);

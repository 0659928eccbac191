// `npm run test:e2e`: finds Chromium, hands its path to playwright.config.ts, runs Playwright.
// Extra arguments go to `playwright test` (e.g. `npm run test:e2e -- tests/e2e/home.spec.ts`).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium, INSTALL_HINT } from './find-chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = await findChromium();
if (!chromium) {
  console.error(INSTALL_HINT);
  process.exit(1);
}

const cli = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');
const child = spawn(process.execPath, [cli, 'test', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
});

for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

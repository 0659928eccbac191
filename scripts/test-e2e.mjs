// `npm run test:e2e`: finds Chromium, gives this run free ports and its own build and data
// folders (so several runs can share the working tree), then runs Playwright.
// Extra arguments go to `playwright test` (e.g. `npm run test:e2e -- tests/e2e/home.spec.ts`; with
// files named, `--no-deps`).
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium, INSTALL_HINT } from './find-chromium.mjs';
import { freePort } from './support/net.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = await findChromium();
if (!chromium) {
  console.error(INSTALL_HINT);
  process.exit(1);
}

const env = { ...process.env, CHROMIUM_PATH: chromium };
/** Folders made for this run only, removed when it ends. */
const scratch = [];
env.E2E_PORT ||= String(await freePort());
env.E2E_SUPABASE_PORT ||= String(await freePort());
// Two more shop servers on the same build, started by tests/e2e/payments-live.spec.ts in live
// payment mode; the local stack must answer their origins too (CORS).
env.E2E_LIVE_STRIPE_PORT ||= String(await freePort());
env.E2E_LIVE_PAYPAL_PORT ||= String(await freePort());
if (!env.ASTRO_OUT_DIR) {
  env.ASTRO_OUT_DIR = `dist-e2e-${env.E2E_PORT}`;
  scratch.push(env.ASTRO_OUT_DIR, path.join('node_modules', `.astro-${env.ASTRO_OUT_DIR}`));
}
if (!env.E2E_SUPABASE_DATA_DIR) {
  env.E2E_SUPABASE_DATA_DIR = path.join('.data', `e2e-${env.E2E_PORT}`);
  scratch.push(env.E2E_SUPABASE_DATA_DIR);
}

const cli = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');
const args = process.argv.slice(2);
// Some spec files named: run just those, without first running every spec the launch-day project
// waits for in a whole run (playwright.config.ts).
if (args.some((arg) => !arg.startsWith('-')) && !args.includes('--no-deps')) args.push('--no-deps');
const child = spawn(process.execPath, [cli, 'test', ...args], { cwd: root, stdio: 'inherit', env });

// SIGINT is the signal Playwright answers with an orderly stop, web server included.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => child.kill('SIGINT'));
}
child.on('exit', (code, signal) => {
  for (const dir of scratch) rmSync(path.join(root, dir), { recursive: true, force: true });
  process.exit(code ?? (signal ? 1 : 0));
});

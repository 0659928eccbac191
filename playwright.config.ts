import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, findChromium } from './scripts/find-chromium.mjs';

// scripts/test-e2e.mjs exports CHROMIUM_PATH; looking again keeps `npx playwright test` working too.
const executablePath = process.env.CHROMIUM_PATH || (await findChromium()) || undefined;

// scripts/test-e2e.mjs picks free ports and per-run folders; the fixed defaults below serve
// a direct `npx playwright test`, and still keep clear of `npm start` (4321, 54321, dist/).
/** The specs that change what the catalogue shows (see projects below). */
const LAUNCH_SPECS = /\/(drops|preorders|alerts)\.spec\.ts$/;
// The buylist's specs: one edits the shop-wide buying rules (shares, bonus, the receiving address)
// that the other prices a sale with, so they run one after the other, in one worker of their own.
const BUYLIST_SPECS = /\/buylist(-admin)?\.spec\.ts$/;

const port = Number(process.env.E2E_PORT || 4329);
const baseURL = `http://127.0.0.1:${port}`;
// The live-payment-mode servers of tests/e2e/payments-live.spec.ts (same build, other ports).
const livePorts = [process.env.E2E_LIVE_STRIPE_PORT || '4330', process.env.E2E_LIVE_PAYPAL_PORT || '4331'];

export default defineConfig({
  testDir: 'tests/e2e',
  // One folder per run under test-results/, so overlapping runs never delete each other's traces.
  outputDir: process.env.E2E_PORT ? `test-results/run-${process.env.E2E_PORT}` : 'test-results',
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    trace: 'retain-on-failure',
    launchOptions: { executablePath, args: CHROMIUM_FLAGS },
  },
  // The device preset sets viewport and user agent only; launchOptions come from `use` above.
  // Launch-day specs change products the whole catalogue shows (a drop time and the full rebuild
  // it asks for, a preorder campaign, a restock), so they run once every other spec is done and
  // /explore's counts are not read while a product changes under them.
  projects: [
    { name: 'chromium', testIgnore: [LAUNCH_SPECS, BUYLIST_SPECS], use: { ...devices['Desktop Chrome'] } },
    { name: 'buylist', testMatch: BUYLIST_SPECS, workers: 1, use: { ...devices['Desktop Chrome'] } },
    { name: 'launch-day', testMatch: LAUNCH_SPECS, dependencies: ['chromium'], use: { ...devices['Desktop Chrome'] } },
  ],
  webServer: {
    // start.mjs builds the site and, once it exists, starts the local Supabase stack too.
    command: `"${process.execPath}" scripts/start.mjs`,
    url: baseURL,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      SITE_URL: baseURL,
      // Its own port and data folder, so a running `npm start` and the tests never share a
      // database; reset on every run so each run starts from the same seeded data.
      LOCAL_SUPABASE_PORT: process.env.E2E_SUPABASE_PORT || '54329',
      LOCAL_SUPABASE_DATA_DIR: process.env.E2E_SUPABASE_DATA_DIR || '.data/e2e',
      START_BACKEND_RESET: '1',
      LOCAL_SUPABASE_CORS_ORIGINS: livePorts.map((p) => `http://127.0.0.1:${p}`).join(','),
      // A build folder of its own, so the tests never serve or clobber the dist/ of `npm start`.
      ASTRO_OUT_DIR: process.env.ASTRO_OUT_DIR || 'dist-e2e',
    },
  },
});

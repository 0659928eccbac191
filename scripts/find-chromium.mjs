// Locates a Chromium the end-to-end tests can drive, without downloading anything.
// Order: CHROMIUM_PATH, Debian's /usr/bin/chromium, then a browser Playwright installed itself.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Flags for a headless browser on a machine without outside network access. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** One line telling how to get a browser, printed when none is found. */
export const INSTALL_HINT =
  'No Chromium found for the end-to-end tests: install one (Debian: `sudo apt-get install chromium`, elsewhere `npx playwright install chromium`) or set CHROMIUM_PATH to its executable.';

/**
 * Returns the path of a usable Chromium executable, or null when there is none.
 * @returns {Promise<string | null>}
 */
export async function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null;
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  try {
    const { chromium } = await import('playwright-core');
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // playwright-core missing or without a registry entry for this platform: nothing more to try.
  }
  return null;
}

// As a command: print the path, or the install hint and exit 1.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const found = await findChromium();
  if (found) {
    console.log(found);
  } else {
    console.error(INSTALL_HINT);
    process.exit(1);
  }
}

/**
 * The shop's Playwright `test` and `expect`: every spec imports them from here, never from
 * '@playwright/test', so that every test fails on an uncaught page error or a console error
 * (hydration mismatches such as React #418 included) in any page of its browser context.
 *
 * A test that provokes an error on purpose says so, and only that error passes:
 *   test.use({ allowConsoleErrors: [/stripe\.com/] });       // for a whole file or describe block
 *   expectConsoleError(page, /Failed to load resource.*404/); // for one page, inside a test
 */
import { test as base, expect, type Page, type Response } from '@playwright/test';

export * from '@playwright/test';
export { expect };

/** Patterns of console or page errors a test expects; anything else fails it. */
export type AllowedErrors = Array<string | RegExp>;

const allowedByPage = new WeakMap<Page, AllowedErrors>();

/** Declares that `page` is expected to log an error matching `pattern` (a string matches as a substring). */
export function expectConsoleError(page: Page, pattern: string | RegExp): void {
  allowedByPage.set(page, [...(allowedByPage.get(page) ?? []), pattern]);
}

/**
 * Opens `path` and returns every script file the page loaded before interaction, once the page's
 * module scripts have run (a module's `load` comes after its imports ran). A product page or
 * /explore asks for its scripts after its first image (src/server/late-scripts.ts); on a busy
 * machine that came 1.4 s after the image, when the network had long been idle, so
 * 'networkidle' alone does not mean the page's scripts are there.
 */
export async function openWithScripts(page: Page, path: string): Promise<{ response: Response | null; scripts: Array<{ url: string; body: Buffer }> }> {
  const bodies: Array<Promise<{ url: string; body: Buffer }>> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.body().then((body) => ({ url: new URL(response.url()).pathname, body })));
  });
  await page.addInitScript(() => {
    const done = new WeakSet<EventTarget>();
    const record = (event: Event) => {
      if (event.target instanceof HTMLScriptElement) done.add(event.target);
    };
    document.addEventListener('load', record, true);
    document.addEventListener('error', record, true);
    (window as unknown as { __scriptDone: (script: Element) => boolean }).__scriptDone = (script) => done.has(script);
  });
  const response = await page.goto(path, { waitUntil: 'networkidle' });
  await page.waitForFunction(() => {
    const scripts = [...document.querySelectorAll('script[type="module"][src]')];
    const done = (window as unknown as { __scriptDone: (script: Element) => boolean }).__scriptDone;
    return scripts.length > 0 && scripts.every((script) => done(script));
  });
  return { response, scripts: await Promise.all(bodies) };
}

const matches = (text: string, pattern: string | RegExp) => (typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text));

interface Options {
  /** Errors every page of the test may log (test.use). */
  allowConsoleErrors: AllowedErrors;
}

export const test = base.extend<Options & { failOnConsoleErrors: void }>({
  allowConsoleErrors: [[], { option: true }],
  failOnConsoleErrors: [
    async ({ context, allowConsoleErrors }, use) => {
      const seen: Array<{ page: Page; text: string }> = [];
      const watch = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() !== 'error') return;
          const where = message.location().url;
          seen.push({ page, text: `console.error: ${message.text()}${where ? ` (${where})` : ''}` });
        });
        page.on('pageerror', (error) => seen.push({ page, text: `pageerror: ${error.message}` }));
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use();
      const unexpected = seen
        .filter(({ page, text }) => ![...allowConsoleErrors, ...(allowedByPage.get(page) ?? [])].some((p) => matches(text, p)))
        .map(({ text }) => text);
      expect(unexpected, 'console errors and uncaught page errors').toEqual([]);
    },
    { auto: true },
  ],
});

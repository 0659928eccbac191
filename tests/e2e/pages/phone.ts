import { expect, type Page, type TestInfo } from '@playwright/test';

/** A common phone (iPhone X–15 mini class) and the narrowest phones still in use. */
export const PHONE = { width: 375, height: 812 } as const;
export const SMALL_PHONE = { width: 320, height: 640 } as const;

/** The smallest tap target the shop allows (WCAG 2.5.5 / Apple's and Google's guidelines). */
export const MIN_TARGET = 44;

/** A button, link or tab that a phone user cannot tap well. */
export interface TargetProblem {
  role: string;
  name: string;
  problem: string;
}

/** What one screen measured. */
export interface ScreenReport {
  screen: string;
  width: number;
  scrollWidth: number;
  /** When the page is wider than the screen: the innermost elements that stick out, to fix. */
  overflowing: string[];
  problems: TargetProblem[];
}

/**
 * Measures the page as it is now: the document's scroll width, and every visible button, link and
 * tab inside `main` and the open dialog (found by role), for being outside the viewport
 * horizontally or smaller than 44 × 44 px.
 *
 * - A control clipped away entirely by an ancestor that hides its overflow (a carousel's next
 *   slides, reached with its arrows) is not visible: the check applies to the part that shows.
 *   An ancestor that scrolls sideways clips nothing here: a table that only fits by scrolling
 *   within itself hides its actions just as a page that scrolls sideways does.
 * - Inline links inside a paragraph of prose are left out: WCAG 2.5.8's "inline" exception covers
 *   a target in a sentence, whose size the line height of the surrounding text decides.
 * - Visually hidden controls (1 px, e.g. the skip link before it is focused) are not visible.
 */
export async function measureScreen(page: Page, screen: string): Promise<ScreenReport> {
  const width = page.viewportSize()!.width;
  const { scrollWidth, overflowing } = await page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    // What a clipping or scrolling ancestor holds in does not widen the page.
    const heldIn = (el: Element) => {
      for (let parent = el.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== 'visible') return true;
      }
      return false;
    };
    const wide = [...document.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > viewport + 0.5 && !heldIn(el));
    // The innermost ones: those none of whose children stick out too.
    const innermost = wide.filter((el) => !wide.some((other) => other !== el && el.contains(other)));
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} (right ${Math.round(el.getBoundingClientRect().right)})`;
    return { scrollWidth: document.documentElement.scrollWidth, overflowing: innermost.slice(0, 8).map(describe) };
  });
  // The open dialog may sit inside main or apart from it; each control is measured once.
  const scope = page.getByRole('main').or(page.getByRole('dialog'));
  const controls = scope.getByRole('button').or(scope.getByRole('link')).or(scope.getByRole('tab'));
  const problems: TargetProblem[] = await controls.evaluateAll(
    (elements, { min, viewport }) => {
      const clipsX = (style: CSSStyleDeclaration) => style.overflowX === 'hidden' || style.overflowX === 'clip';
      /** True for a link that sits in a sentence of a paragraph (WCAG 2.5.8 inline exception). */
      const inlineInProse = (el: Element) => {
        if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
        const paragraph = el.parentElement?.closest('p, li, dd, blockquote');
        if (!paragraph) return false;
        const own = (el.textContent ?? '').trim().length;
        return (paragraph.textContent ?? '').trim().length > own + 10;
      };
      return elements.flatMap((el) => {
        const rect = el.getBoundingClientRect();
        if (rect.width <= 1 || rect.height <= 1) return [];
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || Number(style.opacity) === 0) return [];
        // The part of the control its clipping ancestors let through, horizontally.
        let left = rect.left;
        let right = rect.right;
        for (let parent = el.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
          if (!clipsX(getComputedStyle(parent))) continue;
          const box = parent.getBoundingClientRect();
          left = Math.max(left, box.left);
          right = Math.min(right, box.right);
        }
        if (right - left <= 1) return [];
        const role = el.getAttribute('role') ?? (el.tagName === 'A' ? 'link' : 'button');
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
        const out: Array<{ role: string; name: string; problem: string }> = [];
        if (left < -0.5 || right > viewport + 0.5) {
          out.push({ role, name, problem: `outside the viewport (${Math.round(left)}–${Math.round(right)} of ${viewport} px)` });
        }
        if (!inlineInProse(el) && (Math.round(rect.width) < min || Math.round(rect.height) < min)) {
          out.push({ role, name, problem: `${Math.round(rect.width)} × ${Math.round(rect.height)} px, under ${min} × ${min}` });
        }
        return out;
      });
    },
    { min: MIN_TARGET, viewport: width },
  );
  return { screen, width, scrollWidth, overflowing, problems };
}

/**
 * Checks the screen fits the phone (softly, so one run reports every screen), records its scroll
 * width as an annotation and, at 375 px, attaches a full-page screenshot.
 */
export async function expectFitsPhone(page: Page, testInfo: TestInfo, screen: string): Promise<ScreenReport> {
  // Layout settles after fonts and lazy images; measure what the shopper finally sees.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const report = await measureScreen(page, screen);
  testInfo.annotations.push({ type: 'scrollWidth', description: `${screen} @${report.width}: ${report.scrollWidth}` });
  if (report.width === PHONE.width) {
    // caret: 'initial' leaves the inputs alone: hiding the caret styles them, and an island
    // hydrating during the screenshot would then see markup that differs from the server's.
    const slug = screen
      .replace(/[^a-z0-9]+/gi, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase();
    await testInfo.attach(`${slug}-${report.width}.png`, { body: await page.screenshot({ fullPage: true, caret: 'initial' }), contentType: 'image/png' });
  }
  expect
    .soft(report.scrollWidth, `${screen} at ${report.width} px scrolls sideways; sticking out: ${report.overflowing.join(', ')}`)
    .toBeLessThanOrEqual(report.width);
  expect.soft(report.problems, `${screen} at ${report.width} px: controls a phone user cannot tap`).toEqual([]);
  return report;
}

/** Runs `check` at 375 × 812, then at 320 × 640, and goes back to 375 × 812. */
export async function atBothPhoneSizes(page: Page, check: () => Promise<unknown>): Promise<void> {
  await page.setViewportSize(PHONE);
  await check();
  await page.setViewportSize(SMALL_PHONE);
  await check();
  await page.setViewportSize(PHONE);
}

/**
 * Holds every answer for the page's scripts (`/_astro/*.js`) until the returned function is
 * called, as on a slow network, so what a test does first surely happens before any script ran.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/[^?]+\.js(\?.*)?$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

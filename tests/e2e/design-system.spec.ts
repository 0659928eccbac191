import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';

// Samples of every text style the design system offers, placed on a real page so the real
// stylesheet applies; axe then checks their contrast.
const SAMPLES = `
  <p>Texto normal</p>
  <p class="muted">Texto secundario</p>
  <a href="#x">Enlace</a>
  <button class="btn btn-primary" type="button">Botón principal</button>
  <button class="btn btn-outline" type="button">Botón secundario</button>
  <span class="badge badge-success">Enviado</span>
  <span class="badge badge-warning">Pendiente</span>
  <span class="badge badge-danger">Cancelado</span>
  <span class="badge badge-info">Pagado</span>
  <label for="muestra">Nombre en la tarjeta</label>
  <input id="muestra" class="input" placeholder="Como aparece en la tarjeta" />
  <p class="field-error">Revisa los campos marcados.</p>
`;

async function injectSamples(page: import('@playwright/test').Page, className: string) {
  await page.evaluate(
    ([html, cls]) => {
      const box = document.createElement('section');
      box.id = 'muestras';
      box.className = cls!;
      box.style.padding = '16px';
      box.innerHTML = html!;
      document.getElementById('contenido')!.prepend(box);
    },
    [SAMPLES, className],
  );
}

for (const theme of ['card', 'theme-dark']) {
  test(`text styles meet WCAG AA contrast (${theme === 'card' ? 'light' : 'dark'} theme)`, async ({ page }) => {
    await page.goto('/');
    await injectSamples(page, theme);
    const results = await new AxeBuilder({ page }).include('#muestras').withRules(['color-contrast']).analyze();
    expect(results.passes.length + results.violations.length).toBeGreaterThan(0);
    expect(results.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary}`))).toEqual([]);
  });
}

test('animations and transitions stop when the visitor prefers reduced motion', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/');
  // An animated element of the page's own kind: the global rule must neutralise it.
  const timing = await page.evaluate(() => {
    const style = document.createElement('style');
    style.textContent = '@keyframes latido { 50% { opacity: 0.5; } } .latido { animation: latido 2s infinite; }';
    document.head.append(style);
    const el = document.createElement('div');
    el.className = 'latido btn';
    document.getElementById('contenido')!.append(el);
    const computed = getComputedStyle(el);
    return { animation: parseFloat(computed.animationDuration), transition: parseFloat(computed.transitionDuration) };
  });
  expect(timing.animation).toBeLessThanOrEqual(0.001);
  expect(timing.transition).toBeLessThanOrEqual(0.001);

  // Without the preference the same element animates: the check above is not vacuous.
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  const normal = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.latido')!).animationDuration));
  expect(normal).toBe(2);
});

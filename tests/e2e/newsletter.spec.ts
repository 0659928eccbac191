import { expect, request as playwrightRequest, test, type Page, expectConsoleError } from './fixtures';
import { LOCAL_JWT_SECRET } from 'local-supabase/config';
import { apiKeys } from 'local-supabase/jwt';

/** The local stack the e2e web server started (playwright.config.ts passes the same port). */
const STACK_URL = `http://127.0.0.1:${process.env.E2E_SUPABASE_PORT || '54329'}`;

/** A unique address for this run, so repeated runs never collide. */
function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@prueba.mx`;
}

const TEXT = {
  invalid: 'Ingresa un correo válido.',
  failure: 'No pudimos suscribirte. Intenta más tarde.',
  success: '¡Gracias! Te suscribiste al boletín.',
};

function newsletter(page: Page) {
  const footer = page.getByRole('contentinfo');
  return {
    field: footer.getByRole('textbox', { name: 'Correo electrónico' }),
    submit: footer.getByRole('button', { name: 'Suscribirme' }),
    status: footer.getByRole('status'),
  };
}

/** Rows stored for an address, read with the service role (anon may not read the table). */
async function storedRows(email: string): Promise<Array<{ email: string }>> {
  const { serviceRoleKey } = await apiKeys(process.env.SUPABASE_JWT_SECRET || LOCAL_JWT_SECRET);
  const api = await playwrightRequest.newContext();
  try {
    const response = await api.get(`${STACK_URL}/rest/v1/newsletter_subscribers?select=email&email=eq.${encodeURIComponent(email)}`, {
      headers: { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` },
    });
    expect(response.status()).toBe(200);
    return (await response.json()) as Array<{ email: string }>;
  } finally {
    await api.dispose();
  }
}

test.describe('footer newsletter', () => {
  test('refuses a bad address with the Spanish message and stores nothing', async ({ page }) => {
    const inserts: string[] = [];
    page.on('request', (r) => r.url().includes('/rest/v1/newsletter_subscribers') && inserts.push(r.url()));
    await page.goto('/');
    const { field, submit, status } = newsletter(page);
    for (const bad of ['', 'no-es-correo', 'ana@', 'ana@dominio']) {
      await field.fill(bad);
      await submit.click();
      await expect(status).toHaveText(TEXT.invalid);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toBeFocused();
    }
    // Typing again returns the form to idle.
    await field.fill('ana@dominio.mx');
    await expect(status).toHaveText('');
    await expect(field).not.toHaveAttribute('aria-invalid', 'true');
    expect(inserts).toEqual([]);
  });

  test('subscribes, thanks the shopper, clears the field and stores the address lower-cased', async ({ page }) => {
    const email = uniqueEmail('Boletin');
    await page.goto('/');
    const { field, status } = newsletter(page);
    const insert = page.waitForRequest((r) => r.url().includes('/rest/v1/newsletter_subscribers') && r.method() === 'POST');
    await field.fill(`  ${email.toUpperCase()} `);
    await field.press('Enter');
    await expect(status).toHaveText(TEXT.success);
    await expect(field).toHaveValue('');
    // Anonymous visitors cannot read the table back, so the insert must not ask for the row.
    expect((await insert).headers()['prefer'] ?? '').not.toContain('return=representation');
    expect(await storedRows(email.toLowerCase())).toEqual([{ email: email.toLowerCase() }]);
  });

  test('subscribing the same address twice is a success both times', async ({ page }) => {
    const email = uniqueEmail('dos-veces');
    await page.goto('/faq');
    const { field, submit, status } = newsletter(page);
    await field.fill(email);
    await submit.click();
    await expect(status).toHaveText(TEXT.success);
    await page.reload();
    await field.fill(email);
    await submit.click();
    await expect(status).toHaveText(TEXT.success);
    await expect(field).toHaveValue('');
    expect(await storedRows(email)).toHaveLength(1);
  });

  test('a unique-violation answer from the backend also counts as subscribed', async ({ page }) => {
    expectConsoleError(page, /Failed to load resource|net::ERR_/); // the failure is the point of this step
    await page.route('**/rest/v1/newsletter_subscribers**', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ code: '23505', message: 'duplicate key value violates unique constraint', details: null, hint: null }),
      }),
    );
    await page.goto('/');
    const { field, submit, status } = newsletter(page);
    await field.fill('repetido@prueba.mx');
    await submit.click();
    await expect(status).toHaveText(TEXT.success);
    await expect(field).toHaveValue('');
  });

  test('says so and keeps the address when the backend refuses', async ({ page }) => {
    expectConsoleError(page, /newsletter: insert refused/); // the refusal is the point
    expectConsoleError(page, /Failed to load resource|net::ERR_/); // the failure is the point of this step
    await page.route('**/rest/v1/newsletter_subscribers**', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ message: 'boom' }) }),
    );
    await page.goto('/');
    const { field, submit, status } = newsletter(page);
    await field.fill('ana@prueba.mx');
    await submit.click();
    await expect(status).toHaveText(TEXT.failure);
    await expect(field).toHaveValue('ana@prueba.mx');
    await expect(submit).toBeEnabled();
  });

  test('says so when the backend cannot be reached', async ({ page }) => {
    expectConsoleError(page, /newsletter: insert refused/); // the failure is the point
    expectConsoleError(page, /Failed to load resource|net::ERR_/); // the failure is the point of this step
    await page.route('**/rest/v1/newsletter_subscribers**', (route) => route.abort('connectionrefused'));
    await page.goto('/');
    const { field, submit, status } = newsletter(page);
    await field.fill('ana@prueba.mx');
    await submit.click();
    await expect(status).toHaveText(TEXT.failure);
  });
});

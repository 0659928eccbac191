import { test, expect, type APIRequestContext } from './fixtures';
import { ADMIN, SHOPPER, accessToken, serviceRest, stackKeys } from './pages/auth.ts';

/** The rebuild status as GET /api/admin/rebuild reports it. */
interface RebuildStatus {
  status: 'idle' | 'building' | 'queued';
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  lastError: string | null;
  builds: number;
}

async function rebuildStatus(request: APIRequestContext, token: string): Promise<RebuildStatus> {
  const response = await request.get('/api/admin/rebuild', { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()) as RebuildStatus;
}

test.describe('POST /api/admin/rebuild refuses everyone but an admin', () => {
  test('401 without a token or with a bad one, 403 for a shopper, all JSON', async ({ request }) => {
    const cases: Array<Record<string, string>> = [{}, { Authorization: 'Bearer no-es-un-token' }, { Authorization: 'Basic abc' }];
    for (const headers of cases) {
      // JSON like the admin form sends; Astro refuses body-less cross-origin POSTs before the route.
      const response = await request.post('/api/admin/rebuild', { headers, data: {} });
      expect(response.status()).toBe(401);
      expect(response.headers()['content-type']).toContain('application/json');
      expect(((await response.json()) as { error: string }).error).toBe('not_authenticated');
    }
    const shopper = await accessToken(SHOPPER.email, SHOPPER.password);
    for (const method of ['post', 'get'] as const) {
      const headers = { Authorization: `Bearer ${shopper}` };
      const response =
        method === 'post' ? await request.post('/api/admin/rebuild', { headers, data: {} }) : await request.get('/api/admin/rebuild', { headers });
      expect(response.status()).toBe(403);
      expect(await response.json()).toMatchObject({ error: 'forbidden', message: 'Solo un administrador puede reconstruir el catálogo.' });
    }
    const status = await request.get('/api/admin/rebuild');
    expect(status.status()).toBe(401);
  });
});

test.describe('a rebuild publishes a new product while the old site keeps serving', () => {
  test.setTimeout(300_000);

  test('on demand before the rebuild, static after it, never a failed request in between', async ({ request }) => {
    const admin = await accessToken(ADMIN.email, ADMIN.password);
    // Other suites' product changes may have started a rebuild; start from a quiet server.
    await expect.poll(async () => (await rebuildStatus(request, admin)).status, { timeout: 120_000, intervals: [1000] }).toBe('idle');
    const before = await rebuildStatus(request, admin);
    expect(before.lastError).toBeNull();

    const id = `pk-e2e-rebuild-${Date.now()}`;
    const created = await serviceRest('POST', 'products', {
      id,
      name: 'Producto de prueba de reconstrucción',
      price: 123.45,
      stock: 2,
      franchise_id: 'pokemon',
      product_type_id: 'booster-pack',
      expansion_id: 'destined-rivals',
    });
    expect(created.status).toBe(201);
    // Enough products for one listing to need a second static page (48 per page).
    const before48 = await request.get('/franchise/riftbound/expansions/unleashed/products');
    const countBefore = Number(/Resultados \((\d+)\)/.exec(await before48.text())?.[1]);
    expect(countBefore).toBeLessThan(48);
    const batch = `rb-e2e-pagina-${Date.now()}`;
    const extra = Array.from({ length: 50 }, (_, i) => ({
      id: `${batch}-${String(i).padStart(2, '0')}`,
      name: `Sobre de prueba de paginación ${String(i).padStart(2, '0')}`,
      price: 99,
      stock: 3,
      franchise_id: 'riftbound',
      collection_id: 'rift-dawn',
      product_type_id: 'rb-booster-pack',
      expansion_id: 'unleashed',
    }));
    expect((await serviceRest('POST', 'products', extra)).status).toBe(201);
    try {
      // Not in the running build yet: the server renders it on demand (no static file, no ETag).
      const onDemand = await request.get(`/product/${id}`);
      expect(onDemand.status()).toBe(200);
      expect(await onDemand.text()).toContain('Producto de prueba de reconstrucción');
      expect(onDemand.headers()['etag']).toBeUndefined();

      const accepted = await request.post('/api/admin/rebuild', { headers: { Authorization: `Bearer ${admin}` }, data: {} });
      expect(accepted.status()).toBe(202);
      expect(['building', 'queued']).toContain(((await accepted.json()) as RebuildStatus).status);
      // Asking again while it builds queues one more build instead of starting a second one.
      const again = await request.post('/api/admin/rebuild', { headers: { Authorization: `Bearer ${admin}` }, data: {} });
      expect(again.status()).toBe(202);
      expect(((await again.json()) as RebuildStatus).status).toBe('queued');

      // While the rebuild runs, the site answers every request from a complete tree.
      const failures: string[] = [];
      let checks = 0;
      let finished: RebuildStatus | null = null;
      const deadline = Date.now() + 280_000;
      while (Date.now() < deadline) {
        for (const path of ['/', `/product/${id}`, '/search-index.json']) {
          const response = await request.get(path);
          checks += 1;
          if (response.status() !== 200) failures.push(`${path} ${response.status()}`);
        }
        const status = await rebuildStatus(request, admin);
        if (status.status === 'idle' && status.builds >= before.builds + 2) {
          finished = status;
          break;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      expect(failures).toEqual([]);
      expect(checks).toBeGreaterThan(3);
      expect(finished, 'the rebuilds did not finish in time').not.toBeNull();
      expect(finished!.lastError).toBeNull();
      expect(finished!.durationMs).toBeGreaterThan(0);

      // Now the page is a static file of the new build.
      const published = await request.get(`/product/${id}`);
      expect(published.status()).toBe(200);
      expect(published.headers()['etag']).toBeTruthy();
      expect(await published.text()).toContain('Producto de prueba de reconstrucción');
      const index = await request.get('/search-index.json');
      expect(await index.text()).toContain(id);

      // The grown listing: 'Resultados (n)' counts every product, page 1 shows 48 and links to
      // page 2, which holds the rest.
      const total = countBefore + extra.length;
      const franchiseHeading = `Resultados (${total}) – RIFTBOUND`;
      const page1 = await request.get('/franchise/riftbound/expansions/unleashed/products');
      const html1 = await page1.text();
      expect(html1).toContain(franchiseHeading);
      expect(html1.match(/class="product-card[ "]/g)?.length).toBe(48);
      expect(html1).toContain('aria-label="Página 2"');
      const page2 = await request.get('/franchise/riftbound/expansions/unleashed/products/2');
      expect(page2.status()).toBe(200);
      const html2 = await page2.text();
      expect(html2).toContain(franchiseHeading);
      expect(html2.match(/class="product-card[ "]/g)?.length).toBe(total - 48);
    } finally {
      await serviceRest('DELETE', `products?id=eq.${id}`);
      await serviceRest('DELETE', `products?id=like.${batch}-*`);
    }
  });
});

test.describe('an edit reaches its page without a build', () => {
  test.setTimeout(300_000);

  test("the server publishes a price and name edit itself, and only the shop's own servers may ask it to", async ({ request }) => {
    const { serviceRoleKey } = await stackKeys();
    const shopServer = { Authorization: `Bearer ${serviceRoleKey}` };
    // Only the shop's own servers may ask, with ids that can be products.
    expect((await request.post('/api/internal/catalog-edit', { data: { productIds: ['x'] } })).status()).toBe(401);
    const bad = await request.post('/api/internal/catalog-edit', { headers: shopServer, data: { productIds: ['../x'] } });
    expect(bad.status()).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('invalid_request');

    const admin = await accessToken(ADMIN.email, ADMIN.password);
    await expect.poll(async () => (await rebuildStatus(request, admin)).status, { timeout: 120_000, intervals: [1000] }).toBe('idle');
    const id = `pk-e2e-edicion-${Date.now()}`;
    const created = await serviceRest('POST', 'products', {
      id,
      name: 'Producto de prueba de edición',
      price: 150,
      stock: 4,
      franchise_id: 'pokemon',
      product_type_id: 'booster-pack',
      expansion_id: 'journey-together',
    });
    expect(created.status).toBe(201);
    try {
      // The new product needs a build (the watcher asks for it): wait for its static page.
      await expect.poll(async () => Boolean((await request.get(`/product/${id}`)).headers()['etag']), { timeout: 240_000, intervals: [1000] }).toBe(true);
      await expect.poll(async () => (await rebuildStatus(request, admin)).status, { timeout: 120_000, intervals: [1000] }).toBe('idle');

      // The owner changes its price and name; the server renders its pages itself.
      expect((await serviceRest('PATCH', `products?id=eq.${id}`, { price: 777.77, name: 'Producto de prueba editado' })).status).toBe(200);
      const edited = await request.post('/api/internal/catalog-edit', { headers: shopServer, data: { productIds: [id] } });
      expect(edited.status()).toBe(200);
      const result = (await edited.json()) as { mode: string; written: string[]; searchFollows: boolean };
      expect(result.mode).toBe('fast');
      // A new name changes the header search's file too: the server writes it with the pages.
      // /explore's catalogue is not written again: the edited entry goes beside it.
      expect(result.written).toEqual(expect.arrayContaining([`product/${id}/index.html`, 'explore/catalog-edits.json', 'search-index.json']));
      expect(result.written).not.toContain('explore/catalog.json');
      expect(result.searchFollows).toBe(false);
      const index = await (await request.get('/search-index.json')).text();
      expect(index).toContain('Producto de prueba editado');
      expect(index).not.toContain('Producto de prueba de edición');
      const page = await request.get(`/product/${id}`);
      expect(page.headers()['etag']).toBeTruthy();
      const html = await page.text();
      expect(html).toContain('Producto de prueba editado');
      expect(html).toContain('$777.77');
      // /explore finds it by its new name, at its new price (its catalogue read with the edits).
      await expect
        .poll(async () => (await request.get(`/explore/resultados?q=${encodeURIComponent('prueba editado')}`)).text(), { timeout: 15_000, intervals: [250] })
        .toContain(`/product/${id}`);
      const found = await (await request.get(`/explore/resultados?q=${encodeURIComponent('prueba editado')}`)).text();
      expect(found).toContain('Producto de prueba editado');
      expect(found).toContain('$777.77');

      // Byte for byte what a full build writes: tests/unit/server/rebuild/fast-edit.test.ts builds
      // both for real. (A full rebuild here would take one of the admin's six rebuilds an hour,
      // which the other suites use.)
    } finally {
      await serviceRest('DELETE', `products?id=eq.${id}`);
    }
  });
});

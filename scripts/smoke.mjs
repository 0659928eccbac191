// `npm run smoke -- URL`: checks a deployed shop from the outside and prints what is wrong.
// Home, a product page (the first one the home page links to), a listing, an unknown product
// (404), robots.txt and the sitemap, the security headers on a page and on a static asset, and the
// API answering JSON (401 without a token, never HTML or a 500). Plain Node, no dependencies.
// Exit code 0 when everything holds, 1 otherwise.

import { pathToFileURL } from 'node:url';

const TIMEOUT_MS = Number(process.env.SMOKE_TIMEOUT_MS || 15_000);

/**
 * @typedef {{ name: string, ok: boolean, detail: string }} Check
 */

/**
 * @param {string} base
 * @param {string} path
 * @param {RequestInit} [init]
 */
async function get(base, path, init = {}) {
  const url = new URL(path, base);
  const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS), ...init });
  const body = await res.text();
  return { url: url.href, status: res.status, headers: res.headers, body };
}

/** Headers every answer of the shop carries (scripts/serve.mjs). */
const REQUIRED_HEADERS = {
  'content-security-policy': (v) => /default-src 'self'/.test(v) && /frame-ancestors 'none'/.test(v),
  'x-content-type-options': (v) => v.toLowerCase() === 'nosniff',
  'referrer-policy': (v) => v === 'strict-origin-when-cross-origin',
  'x-frame-options': (v) => v.toUpperCase() === 'DENY',
  'permissions-policy': (v) => /payment=/.test(v),
};

/**
 * @param {Headers} headers
 * @param {boolean} https
 * @returns {string[]} what is missing or wrong
 */
function headerProblems(headers, https) {
  const problems = [];
  for (const [name, valid] of Object.entries(REQUIRED_HEADERS)) {
    const value = headers.get(name);
    if (!value) problems.push(`falta ${name}`);
    else if (!valid(value)) problems.push(`${name} inesperado: ${value.slice(0, 80)}`);
  }
  if (https && !headers.get('strict-transport-security')) problems.push('falta strict-transport-security (el sitio es https)');
  return problems;
}

/**
 * Runs every check against `base` and returns them (never throws for a failing shop).
 * @param {string} base
 * @returns {Promise<Check[]>}
 */
export async function smoke(base) {
  /** @type {Check[]} */
  const checks = [];
  const https = new URL(base).protocol === 'https:';
  const check = async (name, run) => {
    try {
      const problem = await run();
      checks.push({ name, ok: !problem, detail: problem || 'bien' });
    } catch (error) {
      checks.push({ name, ok: false, detail: error instanceof Error ? error.message : String(error) });
    }
  };

  let home = null;
  await check('portada (/)', async () => {
    home = await get(base, '/');
    if (home.status !== 200) return `respondió ${home.status}`;
    if (!(home.headers.get('content-type') ?? '').includes('text/html')) return `content-type ${home.headers.get('content-type')}`;
    if (!/<header[\s>]/.test(home.body) || !/<footer[\s>]/.test(home.body)) return 'sin encabezado o pie de página';
    return '';
  });
  await check('cabeceras de seguridad en la portada', async () => {
    if (!home) return 'sin portada';
    return headerProblems(home.headers, https).join('; ');
  });
  await check('una página de producto', async () => {
    const link = home?.body.match(/href="(\/product\/[^"#?]+)"/)?.[1];
    if (!link) return 'la portada no enlaza ningún producto';
    const page = await get(base, link);
    if (page.status !== 200) return `${link} respondió ${page.status}`;
    if (!/Agregar al carrito|Agotado|No disponible/.test(page.body)) return `${link} no muestra la compra`;
    return '';
  });
  await check('un listado (/franquicias)', async () => {
    const page = await get(base, '/franquicias');
    if (page.status !== 200) return `respondió ${page.status}`;
    const listing = page.body.match(/href="(\/franchise\/[^"#?]+)"/)?.[1];
    if (!listing) return 'no enlaza ninguna franquicia';
    const next = await get(base, listing);
    return next.status === 200 ? '' : `${listing} respondió ${next.status}`;
  });
  await check('un producto inexistente da 404', async () => {
    const page = await get(base, `/product/no-existe-${Date.now()}`);
    return page.status === 404 ? '' : `respondió ${page.status}`;
  });
  await check('robots.txt y sitemap', async () => {
    const robots = await get(base, '/robots.txt');
    if (robots.status !== 200) return `robots.txt respondió ${robots.status}`;
    const sitemap = robots.body.match(/Sitemap:\s*(\S+)/i)?.[1];
    if (!sitemap) return 'robots.txt no indica el sitemap';
    const map = await get(base, new URL(sitemap).pathname);
    return map.status === 200 ? '' : `${sitemap} respondió ${map.status}`;
  });
  await check('cabeceras de seguridad en un recurso estático', async () => {
    const asset = home?.body.match(/(?:src|href)="(\/_astro\/[^"]+\.(?:js|css))"/)?.[1];
    if (!asset) return 'la portada no carga recursos de /_astro/';
    const res = await get(base, asset);
    if (res.status !== 200) return `${asset} respondió ${res.status}`;
    return headerProblems(res.headers, https).join('; ');
  });
  await check('la API responde JSON (401 sin sesión)', async () => {
    const res = await get(base, '/api/create-payment-intent', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ orderId: '00000000-0000-4000-8000-000000000000' }),
    });
    if (!(res.headers.get('content-type') ?? '').includes('application/json')) return `content-type ${res.headers.get('content-type')} (${res.status})`;
    if (res.status !== 401 && res.status !== 503) return `respondió ${res.status}: ${res.body.slice(0, 120)}`;
    const body = JSON.parse(res.body);
    return typeof body.error === 'string' && typeof body.message === 'string' ? '' : 'JSON sin error/message';
  });
  await check('la API de administración pide sesión', async () => {
    const res = await get(base, '/api/admin/rebuild');
    if (res.status !== 401) return `respondió ${res.status}`;
    return (res.headers.get('content-type') ?? '').includes('application/json') ? '' : `content-type ${res.headers.get('content-type')}`;
  });
  return checks;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const base = process.argv[2];
  if (!base || !/^https?:\/\//.test(base)) {
    console.error('uso: npm run smoke -- https://tu-tienda.mx');
    process.exit(2);
  }
  const checks = await smoke(base);
  for (const c of checks) console.log(`${c.ok ? '✓' : '✗'} ${c.name}${c.ok ? '' : `: ${c.detail}`}`);
  const failed = checks.filter((c) => !c.ok).length;
  console.log(
    failed === 0 ? `smoke: ${base} está bien (${checks.length} comprobaciones)` : `smoke: ${failed} de ${checks.length} comprobaciones fallaron en ${base}`,
  );
  process.exit(failed === 0 ? 0 : 1);
}

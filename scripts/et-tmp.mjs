import http from 'node:http'; import fs from 'node:fs'; import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, findChromium } from '/work/main/scripts/find-chromium.mjs';
const media = '/tmp/tmp.9UAU93fztx/supabase/storage/products/';
const client = '/work/main/dist-bench/client';
const html = fs.readFileSync('/tmp/explore.html', 'utf8');
const variants = {
  asis: html,
  noscripts: html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ''),
  nostyles: html.replace(/<link[^>]*stylesheet[^>]*>/g, '').replace(/<style[\s\S]*?<\/style>/g, ''),
  nopreload: html.replace(/<link rel="preload" as="image"[^>]*>/g, ''),
};
const types = { '.js': 'text/javascript', '.css': 'text/css', '.avif': 'image/avif', '.jpg': 'image/jpeg', '.svg': 'image/svg+xml', '.woff2': 'font/woff2' };
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  let file = null;
  if (url.pathname.startsWith('/media/products/')) file = media + url.pathname.slice(16);
  else if (url.pathname.startsWith('/v/')) { res.writeHead(200, { 'content-type': 'text/html' }); return res.end(variants[url.pathname.slice(3)]); }
  else file = path.join(client, url.pathname);
  if (!file || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); return res.end(); }
  res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' });
  res.end(fs.readFileSync(file));
}).listen(0, '127.0.0.1', async () => {
  const browser = await chromium.launch({ executablePath: (await findChromium()) || '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  for (const v of Object.keys(variants)) {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    await page.addInitScript(() => { window.got = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) got.push([e.entryType, e.identifier ?? '', Math.round(e.startTime), e.url?.slice(-14)]); }).observe({ type: 'element', buffered: true });
      new PerformanceObserver((l) => { for (const e of l.getEntries()) got.push([e.entryType, '', Math.round(e.startTime), e.url?.slice(-14)]); }).observe({ type: 'largest-contentful-paint', buffered: true }); });
    const errors = []; page.on('console', (m) => m.type() === 'error' && errors.push(m.text().slice(0, 100)));
    await page.goto(`http://127.0.0.1:${server.address().port}/v/${v}`);
    await page.waitForTimeout(2500);
    console.log(v, JSON.stringify(await page.evaluate(() => window.got)), JSON.stringify(await page.evaluate(() => performance.getEntriesByType('resource').filter((r) => r.name.includes('_astro') && r.name.endsWith('.js')).map((r) => Math.round(r.startTime)))), errors.length);
    await page.close();
  }
  await browser.close(); server.close();
});

/**
 * The local storage server through supabase-js: seeded catalogue images served publicly
 * with the right type and caching headers, uploads decided by the RLS policies of
 * storage.objects, and paths that cannot leave the storage folder.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from './helpers.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

function client(key = stack.anonKey): SupabaseClient {
  return createClient(stack.url, key, { auth: { persistSession: false, autoRefreshToken: false } });
}

async function signedIn(email: string, password: string): Promise<SupabaseClient> {
  const sb = client();
  const { error } = await sb.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return sb;
}

/** A GET with the path sent byte for byte (fetch would normalise `..` away). */
function rawGet(rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(stack.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

describe('public objects', () => {
  it('a seeded catalogue image is served with its content type, public caching headers and 304 revalidation', async () => {
    const seedDir = path.join(stack.stack.config.rootDir, 'supabase', 'storage', 'expansions');
    const file = fs.readdirSync(seedDir).find((f) => f.endsWith('.svg'));
    expect(file, 'supabase/storage/expansions holds SVG seed images').toBeTruthy();
    const url = client().storage.from('expansions').getPublicUrl(file!).data.publicUrl;
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = res.headers.get('etag');
    expect(etag).toBeTruthy();
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(path.join(seedDir, file!)))).toBe(true);

    const again = await fetch(url, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('a missing object is a 404 in storage-api shape', async () => {
    const res = await fetch(`${stack.url}/storage/v1/object/public/expansions/no-existe.svg`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ statusCode: '404', error: 'not_found', message: 'Object not found' });
    const bucket = await fetch(`${stack.url}/storage/v1/object/public/no-hay-bucket/x.png`);
    expect(bucket.status).toBe(404);
  });

  it('paths that try to leave the storage folder are refused', async () => {
    // The database files live next to storage/ in the data folder.
    for (const p of [
      '/storage/v1/object/public/products/..%2F..%2Fmailbox.jsonl',
      '/storage/v1/object/public/products/%2e%2e/%2e%2e/mailbox.jsonl',
      '/storage/v1/object/public/products/a%2F..%2F..%2F..%2Fetc%2Fpasswd',
      '/storage/v1/object/public/products/..%5C..%5Cmailbox.jsonl',
      '/storage/v1/object/public/..%2Fstorage/products/x.png',
      '/storage/v1/object/public/products/%00.png',
      '/storage/v1/object/public/products/%E0%A4%A',
    ]) {
      const res = await rawGet(p);
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.status, p).toBeLessThan(500);
      expect(res.body, p).not.toContain('root:');
    }
    const literal = await rawGet('/storage/v1/object/public/products/../../../../etc/passwd');
    expect(literal.status).toBeGreaterThanOrEqual(400);
    expect(literal.status).toBeLessThan(500);
    expect(literal.body).not.toContain('root:');
  });
});

describe('uploads', () => {
  it("a shopper's upload is refused by RLS and leaves no file behind", async () => {
    const shopper = await signedIn('cliente@demo.mx', 'Cliente123!');
    const { data, error } = await shopper.storage.from('products').upload('intentos/cliente.png', PNG, { contentType: 'image/png' });
    expect(data).toBeNull();
    expect(error).toMatchObject({ statusCode: '403', message: 'new row violates row-level security policy' });
    expect(fs.existsSync(path.join(stack.dataDir, 'storage', 'products', 'intentos', 'cliente.png'))).toBe(false);

    const anon = await client().storage.from('products').upload('intentos/anonimo.png', PNG, { contentType: 'image/png' });
    expect(anon.error).toMatchObject({ statusCode: '403' });
  });

  it("an admin's upload is accepted and then served publicly; a second upload without upsert is a duplicate", async () => {
    const admin = await signedIn('admin@demo.mx', 'Admin123!');
    const name = `nuevos/producto-${Date.now()}.png`;
    const { data, error } = await admin.storage.from('products').upload(name, new Blob([PNG], { type: 'image/png' }), { cacheControl: '600' });
    expect(error).toBeNull();
    expect(data?.path).toBe(name);
    expect(data?.fullPath).toBe(`products/${name}`);
    expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);

    const res = await fetch(admin.storage.from('products').getPublicUrl(name).data.publicUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);

    const dup = await admin.storage.from('products').upload(name, PNG, { contentType: 'image/png' });
    expect(dup.error).toMatchObject({ statusCode: '409', message: 'The resource already exists' });
    const upsert = await admin.storage.from('products').upload(name, PNG, { contentType: 'image/png', upsert: true });
    expect(upsert.error).toBeNull();
    expect(upsert.data?.id).toBe(data?.id);

    const download = await admin.storage.from('products').download(name);
    expect(download.error).toBeNull();
    expect(Buffer.from(await download.data!.arrayBuffer()).equals(PNG)).toBe(true);

    const shopper = await signedIn('cliente@demo.mx', 'Cliente123!');
    const notTheirs = await shopper.storage.from('products').remove([name]);
    expect(notTheirs.data).toEqual([]);
    const removed = await admin.storage.from('products').remove([name]);
    expect(removed.error).toBeNull();
    expect(removed.data?.map((o) => o.name)).toEqual([name]);
    expect((await fetch(admin.storage.from('products').getPublicUrl(name).data.publicUrl)).status).toBe(404);
  });

  it('list() shows the files and folders under a prefix; a path that runs through a file is refused', async () => {
    const admin = await signedIn('admin@demo.mx', 'Admin123!');
    const dir = `lista-${Date.now()}`;
    for (const name of [`${dir}/b.png`, `${dir}/a.png`, `${dir}/sub/c.png`]) {
      expect((await admin.storage.from('products').upload(name, PNG, { contentType: 'image/png' })).error).toBeNull();
    }
    const { data, error } = await admin.storage.from('products').list(dir);
    expect(error).toBeNull();
    expect(data!.map((o) => o.name)).toEqual(['a.png', 'b.png', 'sub']);
    expect(data!.find((o) => o.name === 'sub')?.id).toBeNull();
    expect(data!.find((o) => o.name === 'a.png')?.metadata).toMatchObject({ mimetype: 'image/png', size: PNG.length });
    const searched = await admin.storage.from('products').list(dir, { search: 'b.', sortBy: { column: 'name', order: 'desc' } });
    expect(searched.data!.map((o) => o.name)).toEqual(['b.png']);

    const conflict = await admin.storage.from('products').upload(`${dir}/a.png/dentro.png`, PNG, { contentType: 'image/png' });
    expect(conflict.error).toMatchObject({ statusCode: '409' });
    const listed = await admin.storage.from('products').list(`${dir}/a.png`);
    expect(listed.data).toEqual([]);
  });

  it('the service role lists the buckets; other callers may not', async () => {
    const { data, error } = await client(stack.serviceRoleKey).storage.listBuckets();
    expect(error).toBeNull();
    const ids = data!.map((b) => b.id);
    expect(ids).toEqual(expect.arrayContaining(['products', 'expansions']));
    expect(data!.find((b) => b.id === 'products')?.public).toBe(true);
    const anon = await client().storage.listBuckets();
    expect(anon.data).toBeNull();
    expect(anon.error).toMatchObject({ statusCode: '403' });
  });
});

/**
 * The stack as a package of its own: its source imports nothing of the project that uses it and
 * only the packages its package.json declares, and with no project configuration it runs on an
 * empty project folder with its neutral brand and English e-mails, while a project's brand and
 * e-mail texts replace them.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BRAND, startStack, type RunningStack, type StartOptions } from '../src/index.ts';

const PACKAGE_DIR = path.resolve(import.meta.dirname, '..');
const tempDirs: string[] = [];
const stacks: RunningStack[] = [];

afterAll(async () => {
  for (const stack of stacks) await stack.stop();
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(?:ts|mjs)$/.test(entry.name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const code = fs.readFileSync(file, 'utf8');
  return [...code.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'|import\('([^']+)'\)|new URL\('([^']+)', import\.meta\.url\)/g)].map(
    (m) => m[1] ?? m[2] ?? m[3]!,
  );
}

describe('package boundary', () => {
  const files = sourceFiles(path.join(PACKAGE_DIR, 'src'));
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };

  it('finds the sources and their imports', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.flatMap(importsOf)).toContain('./auth/emails.ts');
  });

  it('imports nothing outside the package', () => {
    const outside = files.flatMap((file) =>
      importsOf(file)
        .filter((spec) => spec.startsWith('.'))
        .map((spec) => path.resolve(path.dirname(file), spec))
        .filter((target) => !target.startsWith(PACKAGE_DIR + path.sep))
        .map((target) => `${path.relative(PACKAGE_DIR, file)} → ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it('imports only built-ins and the dependencies its package.json declares', () => {
    const declared = new Set(Object.keys(manifest.dependencies));
    // supabase-js is only the benchmark's client (a devDependency of the package, pinned exactly).
    const benchOnly = new Set(['@supabase/supabase-js']);
    const undeclared = files.flatMap((file) =>
      importsOf(file)
        .filter((spec) => !spec.startsWith('.') && !spec.startsWith('node:') && !builtinModules.includes(spec))
        .map((spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!))
        .filter((name) => !declared.has(name) && !(benchOnly.has(name) && file.endsWith(`${path.sep}bench.ts`)))
        .map((name) => `${path.relative(PACKAGE_DIR, file)} imports ${name}`),
    );
    expect(undeclared).toEqual([]);
    expect(manifest.devDependencies['@supabase/supabase-js']).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

async function start(options: StartOptions): Promise<RunningStack> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'local-supabase-proyecto-'));
  tempDirs.push(root);
  const stack = await startStack({
    rootDir: root,
    dataDir: path.join(root, '.data'),
    memory: true,
    templateDir: null,
    port: 0,
    host: '127.0.0.1',
    databaseUrl: '',
    autoconfirm: false,
    siteUrl: 'http://localhost:4321',
    ...options,
  });
  stacks.push(stack);
  return stack;
}

async function signUpAndReadMail(stack: RunningStack, email: string): Promise<{ subject: string; html: string; text: string; links: string[] }> {
  const sb = createClient(stack.url, stack.config.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { error } = await sb.auth.signUp({ email, password: 'Secreta123!' });
  expect(error).toBeNull();
  const res = await fetch(`${stack.url}/mailbox/api/messages?to=${encodeURIComponent(email)}`, {
    headers: { apikey: stack.config.serviceRoleKey },
  });
  expect(res.status).toBe(200);
  const mails = (await res.json()) as Array<{ subject: string; html: string; text: string; links: string[] }>;
  expect(mails).toHaveLength(1);
  return mails[0]!;
}

describe('configuration', () => {
  it('without a project: the bootstrap alone, the neutral brand and English e-mails', async () => {
    const stack = await start({});
    expect(stack.config.brand).toBe(DEFAULT_BRAND);
    const mail = await signUpAndReadMail(stack, 'neutral@example.test');
    expect(mail.subject).toBe(`Confirm your ${DEFAULT_BRAND} account`);
    expect(mail.text).toContain(`— The ${DEFAULT_BRAND} team`);
    expect(mail.links).toHaveLength(1);
    expect(mail.links[0]).toContain(`${stack.url}/auth/v1/verify?`);
    expect(mail.html).toContain(mail.links[0]!.replace(/&/g, '&amp;'));
    const page = await fetch(`${stack.url}/mailbox`);
    expect(await page.text()).toContain(`<title>Buzón local · ${DEFAULT_BRAND}</title>`);
  });

  it("a project's brand and e-mail texts replace the defaults", async () => {
    const stack = await start({
      brand: 'Tienda <Prueba>',
      emails: {
        confirmation: (link, brand) => ({ subject: `Bienvenida a ${brand}`, html: `<a href="${link}">entrar</a>`, text: `${brand}: ${link}` }),
      },
    });
    const mail = await signUpAndReadMail(stack, 'marca@example.test');
    expect(mail.subject).toBe('Bienvenida a Tienda <Prueba>');
    expect(mail.text).toMatch(/^Tienda <Prueba>: http:\/\/127\.0\.0\.1:\d+\/auth\/v1\/verify\?/);
    expect(mail.links).toEqual([mail.text.slice('Tienda <Prueba>: '.length)]);
    // The mailbox page escapes the brand.
    const page = await (await fetch(`${stack.url}/mailbox`)).text();
    expect(page).toContain('<title>Buzón local · Tienda &lt;Prueba&gt;</title>');
    // The e-mails left out keep the defaults.
    const recover = await fetch(`${stack.url}/auth/v1/recover`, {
      method: 'POST',
      headers: { apikey: stack.config.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'marca@example.test' }),
    });
    expect(recover.status).toBe(200);
    const all = (await (
      await fetch(`${stack.url}/mailbox/api/messages?to=marca%40example.test`, { headers: { apikey: stack.config.serviceRoleKey } })
    ).json()) as Array<{ subject: string }>;
    expect(all.map((m) => m.subject)).toEqual(['Reset your Tienda <Prueba> password', 'Bienvenida a Tienda <Prueba>']);
  });
});

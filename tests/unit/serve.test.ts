/**
 * scripts/serve.mjs as an operator runs it, with plain `node` and no TypeScript loader: the
 * start-up check of the required variables, the security headers and compression around the
 * adapter's handler, and the drain on SIGTERM. The Astro server entry is a small stand-in (an
 * `astro build` takes too long for a unit test); the rebuild and headers code is the real one,
 * compiled by scripts/build-server-runtime.mjs exactly as `npm run build` does.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServerRuntime } from '../../scripts/build-server-runtime.mjs';
import { checkProdDeps, serverEntries } from '../../scripts/check-prod-deps.mjs';
import { freePort } from '../../scripts/support/net.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const serveScript = path.join(root, 'scripts', 'serve.mjs');

const REQUIRED = {
  PUBLIC_SUPABASE_URL: 'http://127.0.0.1:9',
  PUBLIC_SUPABASE_ANON_KEY: 'anon',
  SUPABASE_SERVICE_ROLE_KEY: 'service',
  SITE_URL: 'http://127.0.0.1:4321',
};

/** The environment without any of the shop's variables (the test runner may have some). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
  return { ...env, ...extra };
}

function runServe(env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, [serveScript], { cwd: root, env, encoding: 'utf8', timeout: 20_000 });
}

describe('serve.mjs refuses to start without its production variables', () => {
  it('prints one line naming every missing variable and exits 1', () => {
    const result = runServe(cleanEnv());
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      'serve: missing required environment variables PUBLIC_SUPABASE_URL, PUBLIC_SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY, SITE_URL (see .env.example)',
    ]);
    expect(result.stdout).toBe('');
  });

  it.each(Object.keys(REQUIRED))('names %s alone when only it is missing (or empty)', (name) => {
    for (const value of [undefined, '  ']) {
      const env = cleanEnv({ ...REQUIRED });
      if (value === undefined) delete env[name];
      else env[name] = value;
      const result = runServe(env);
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(`serve: missing required environment variable ${name} (see .env.example)\n`);
    }
  });

  it('rejects a SITE_URL that is not an http(s) URL in one line', () => {
    const result = runServe(cleanEnv({ ...REQUIRED, SITE_URL: 'cartas.mx' }));
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('serve: SITE_URL must be an http(s) URL, got "cartas.mx"\n');
  });

  it('does not need payment keys, and says what is missing when there is no build', () => {
    const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-nobuild-'));
    try {
      const result = runServe(cleanEnv({ ...REQUIRED, ASTRO_OUT_DIR: outDir }));
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(`serve: ${path.join(outDir, 'server', 'entry.mjs')} is missing; run \`npm run build\`\n`);
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe('what the production server imports', () => {
  it('is production dependencies only: serve.mjs and the sources of its compiled runtime', () => {
    const { problems, packages } = checkProdDeps({ entries: [serveScript, path.join(root, 'src', 'server', 'serve-runtime.ts')] });
    expect(problems).toEqual([]);
    expect(packages).toEqual(expect.arrayContaining(['compression', '@supabase/supabase-js', 'ws']));
  });

  it('fails for a devDependency, directly or through a relative import', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prod-deps-'));
    try {
      fs.writeFileSync(path.join(dir, 'entry.mjs'), "import './helper.mjs';\nimport React from 'react';\nexport default React;\n");
      fs.writeFileSync(path.join(dir, 'helper.mjs'), "const { tsImport } = await import('tsx/esm/api');\nimport 'node:fs';\nexport { tsImport };\n");
      fs.writeFileSync(
        path.join(dir, 'other.mjs'),
        'import { PGlite } from \'@electric-sql/pglite\';\nimport { describe } from "vitest";\nexport { PGlite, describe };\n',
      );
      const result = checkProdDeps({ entries: [path.join(dir, 'entry.mjs'), path.join(dir, 'other.mjs')] });
      const relative = (file: string) => path.relative(root, path.join(dir, file));
      expect([...result.problems].sort()).toEqual(
        [
          `${relative('helper.mjs')} imports tsx, which is not a production dependency (gone after npm prune --omit=dev)`,
          `${relative('other.mjs')} imports @electric-sql/pglite, which is not a production dependency (gone after npm prune --omit=dev)`,
          `${relative('other.mjs')} imports vitest, which is not a production dependency (gone after npm prune --omit=dev)`,
        ].sort(),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  const built = path.join(root, process.env.ASTRO_OUT_DIR || 'dist');
  it.skipIf(!fs.existsSync(path.join(built, 'server', 'runtime.mjs')))('is production dependencies only in the build in dist/', () => {
    expect(checkProdDeps({ entries: serverEntries(built) }).problems).toEqual([]);
  });
});

// Stands in for dist/server/entry.mjs: answers like the adapter (writeHead, then the body),
// slowly for /slow, counts the sweeps serve.mjs asks for, and says its NODE_ENV at /node-env.
const FAKE_ENTRY = `
export const options = { host: '127.0.0.1', port: 4321 };
export function handler(req, res) {
  const html = '<!doctype html><html><head><script>window.listo=true</script></head><body>' + '<p>Cartas</p>'.repeat(100) + '</body></html>';
  if (req.url === '/slow') {
    setTimeout(() => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(html); }, 1500);
    return;
  }
  if (req.url === '/api/internal/sweep') { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{}'); return; }
  if (req.url === '/node-env') { res.writeHead(200, { 'content-type': 'text/plain' }); res.end(String(process.env.NODE_ENV)); return; }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.write(html.slice(0, 50));
  res.end(html.slice(50));
}
`;

describe('serve.mjs serving a build', () => {
  let outDir: string;
  let port: number;
  let child: ChildProcess;
  let output = '';
  let startupMs = 0;

  beforeAll(async () => {
    // Inside the project, so the runtime's package imports resolve from its node_modules.
    const cache = path.join(root, 'node_modules', '.cache');
    fs.mkdirSync(cache, { recursive: true });
    outDir = fs.mkdtempSync(path.join(cache, 'serve-test-'));
    fs.mkdirSync(path.join(outDir, 'client'), { recursive: true });
    fs.mkdirSync(path.join(outDir, 'server'), { recursive: true });
    fs.writeFileSync(path.join(outDir, 'client', 'index.html'), '<p>hola</p>');
    fs.writeFileSync(path.join(outDir, 'server', 'entry.mjs'), FAKE_ENTRY);
    await buildServerRuntime({ outDir, quiet: true });
    port = await freePort();
    const started = Date.now();
    child = spawn(process.execPath, [serveScript], {
      cwd: root,
      env: cleanEnv({ ...REQUIRED, ASTRO_OUT_DIR: outDir, HOST: '127.0.0.1', PORT: String(port), REBUILD_ON_CHANGE: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    while (!output.includes('serve: tienda en')) {
      if (child.exitCode !== null) throw new Error(`serve.mjs exited: ${output}`);
      if (Date.now() - started > 20_000) throw new Error(`serve.mjs did not start: ${output}`);
      await new Promise((r) => setTimeout(r, 25));
    }
    startupMs = Date.now() - started;
  });

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(outDir, { recursive: true, force: true });
  });

  it('starts with plain node from the compiled runtime, without tsx', () => {
    expect(output).toMatch(/serve: tienda en http:\/\/127\.0\.0\.1:\d+\/ \(lista en \d+ ms\)/);
    expect(startupMs).toBeLessThan(10_000);
    expect(fs.readFileSync(path.join(outDir, 'server', 'runtime.mjs'), 'utf8')).not.toMatch(/\btsx\b/);
  });

  it("runs its libraries' production builds: NODE_ENV is production when the environment does not set it", async () => {
    // React's server renderer loads its development build unless NODE_ENV is 'production'.
    const res = await fetch(`http://127.0.0.1:${port}/node-env`);
    expect(await res.text()).toBe('production');
  });

  it('answers with the security headers and the page hashes, brotli-compressed', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(await res.text()).toContain('window.listo=true');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('strict-transport-security')).toBeNull();
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("connect-src 'self' http://127.0.0.1:9 ws://127.0.0.1:9");
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'/);
  });

  it('lets an answer in progress finish on SIGTERM, refuses new connections, and exits 0', async () => {
    const slow = new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/slow`, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        })
        .on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 300));
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })));
    const signalledAt = Date.now();
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('window.listo=true');
    const { code, at } = await exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(10_000);
    expect(output).toContain('serve: SIGTERM; terminando las peticiones en curso');
  });
});

// Bundles src/server/serve-runtime.ts (catalogue rebuilds, security headers) into
// `<outDir>/server/runtime.mjs`, next to the Astro server build, so scripts/serve.mjs imports
// plain JavaScript and the production server needs no TypeScript loader (tsx is a
// devDependency and is gone after `npm prune --omit=dev`).
//
// Why a bundle built with the site rather than the alternatives: Node's own type stripping needs
// Node >= 22.18 and only erasable syntax, and the transpiler in `typescript` is a devDependency;
// Vite is what `astro build` itself runs on (a dependency of astro, so present wherever the site
// can be built, pruned or not), it understands every TypeScript the sources use, and one
// self-contained file cannot pick up a stray import of a dev tool from a relative path.
// `npm run build` and `npm start` run this after `astro build`; a catalogue rebuild does not
// need it, because only the client folder of a rebuild is published.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles the server runtime into `<outDir>/server/runtime.mjs`.
 * @param {{ outDir?: string, quiet?: boolean }} [options]
 * @returns {Promise<string>} the written file
 */
export async function buildServerRuntime(options = {}) {
  const outDir = path.resolve(root, options.outDir ?? (process.env.ASTRO_OUT_DIR || 'dist'));
  const serverDir = path.join(outDir, 'server');
  if (!existsSync(serverDir)) throw new Error(`${serverDir} is missing; run \`astro build\` first`);
  const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
  await build({
    configFile: false,
    root,
    logLevel: options.quiet ? 'silent' : 'warn',
    publicDir: false,
    // The sources are plain TypeScript: no Astro virtual modules, no env files to inline.
    envDir: false,
    build: {
      ssr: path.join(root, 'src', 'server', 'serve-runtime.ts'),
      outDir: serverDir,
      emptyOutDir: false,
      target: 'node22',
      minify: false,
      sourcemap: false,
      copyPublicDir: false,
      rollupOptions: {
        // Packages are loaded from node_modules at run time (and checked by
        // scripts/check-prod-deps.mjs); only the shop's own files go into the bundle.
        external: (id) => builtins.has(id) || !(id.startsWith('.') || id.startsWith('~/') || path.isAbsolute(id)),
        output: { format: 'es', entryFileNames: 'runtime.mjs', chunkFileNames: 'runtime-[name]-[hash].mjs' },
      },
    },
    // `~/` as tsconfig.json defines it.
    resolve: { tsconfigPaths: true },
    ssr: { target: 'node' },
  });
  return path.join(serverDir, 'runtime.mjs');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const file = await buildServerRuntime();
    console.log(`build-server-runtime: ${path.relative(root, file)}`);
  } catch (error) {
    console.error(`build-server-runtime: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

// Checks that the code the production server runs imports production packages only, so
// `npm prune --omit=dev` cannot break it: starting from scripts/serve.mjs and the built server
// (<outDir>/server/entry.mjs and runtime.mjs), it follows every relative import and reads every
// package import (static, dynamic with a literal, require), and fails for a package that
// package-lock.json marks as dev-only (tsx, vitest, @electric-sql/pglite, typescript, …) or that
// is not installed at all. TypeScript sources may be given as entries too (type-only imports are
// skipped), which lets the unit tests check the runtime's sources without a build.
//
//   node scripts/check-prod-deps.mjs [outDir]     (default: ASTRO_OUT_DIR or dist)
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const BUILTINS = new Set(builtinModules);

// `from 'x'`, `import 'x'`, `import('x')`, `require('x')`; type-only imports are dropped below.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*|\brequire\s*\(\s*)(['"])([^'"\s]+)\1/g;
const TYPE_ONLY = /\b(?:import|export)\s+type\s+(?:\{[^}]*\}|[\w$*]+(?:\s+as\s+[\w$]+)?)\s*from\s*['"][^'"]+['"]/g;

/**
 * The package a bare specifier names ('@scope/name/sub' → '@scope/name'), or null for
 * built-ins, URLs and virtual modules.
 * @param {string} specifier
 * @returns {string | null}
 */
export function packageName(specifier) {
  if (specifier.startsWith('node:') || /^[a-z][\w+.-]*:/i.test(specifier)) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  if (!name || BUILTINS.has(name)) return null;
  return name;
}

/**
 * The import specifiers of one source file, without type-only imports.
 * @param {string} code
 * @returns {string[]}
 */
export function importSpecifiers(code) {
  const withoutTypes = code.replace(TYPE_ONLY, '');
  return [...withoutTypes.matchAll(IMPORT)].map((match) => match[2]);
}

/**
 * @param {string} from the importing file
 * @param {string} specifier a relative specifier
 * @returns {string | null} the file it names, if it exists
 */
function resolveRelative(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier.split('?')[0]);
  for (const candidate of [base, `${base}.mjs`, `${base}.js`, `${base}.ts`, path.join(base, 'index.mjs'), path.join(base, 'index.js')]) {
    if (existsSync(candidate) && /\.(?:mjs|js|ts)$/.test(candidate)) return candidate;
  }
  return null;
}

/**
 * The lock file paths ('node_modules/x', 'node_modules/a/node_modules/x') reachable from the
 * root's `dependencies` through dependencies, optional dependencies and required peers, found
 * the way Node resolves them (nearest node_modules first). The lock's own `dev` flag is not
 * enough: a dev tool that something optional also names (tsx, as an optional peer of vite) is
 * marked `devOptional` and a production install may or may not have it.
 * @param {{ packages?: Record<string, any> }} lock
 * @returns {Set<string>}
 */
export function productionPackages(lock) {
  const all = lock.packages ?? {};
  const reachable = new Set();
  /** @param {string} from lock path of the dependent ('' for the root) @param {string} name */
  const locate = (from, name) => {
    let dir = from;
    for (;;) {
      const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (all[candidate]) return candidate;
      if (!dir) return null;
      const at = dir.lastIndexOf('/node_modules/');
      dir = at === -1 ? '' : dir.slice(0, at);
    }
  };
  const queue = [''];
  while (queue.length > 0) {
    const from = queue.shift();
    const pkg = all[from] ?? {};
    const optionalPeers = pkg.peerDependenciesMeta ?? {};
    const names = [
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.optionalDependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}).filter((name) => !optionalPeers[name]?.optional),
    ];
    for (const name of names) {
      const found = locate(from, name);
      if (found && !reachable.has(found)) {
        reachable.add(found);
        queue.push(found);
      }
    }
  }
  return reachable;
}

/**
 * Follows entries through their relative imports and checks every package they import against
 * the lock file.
 * @param {{ entries: string[], lockFile?: string }} options
 * @returns {{ files: string[], packages: string[], problems: string[] }}
 */
export function checkProdDeps({ entries, lockFile = path.join(root, 'package-lock.json') }) {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
  const installed = lock.packages ?? {};
  const seen = new Set();
  const packages = new Map();
  const problems = [];
  const queue = [];
  for (const entry of entries) {
    if (existsSync(entry)) queue.push(path.resolve(entry));
    else problems.push(`${path.relative(root, entry)} does not exist`);
  }
  while (queue.length > 0) {
    const file = queue.shift();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.') || specifier.startsWith('/')) {
        const target = resolveRelative(file, specifier);
        if (target) queue.push(target);
        continue;
      }
      const name = packageName(specifier);
      // Strings that only look like imports (template text, error messages) are not packages.
      if (!name || !/^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name)) continue;
      if (!packages.has(name)) packages.set(name, path.relative(root, file));
    }
  }
  const production = productionPackages(lock);
  for (const [name, file] of packages) {
    const key = `node_modules/${name}`;
    if (!installed[key]) problems.push(`${file} imports ${name}, which is not installed`);
    else if (!production.has(key)) problems.push(`${file} imports ${name}, which is not a production dependency (gone after npm prune --omit=dev)`);
  }
  return { files: [...seen].map((file) => path.relative(root, file)), packages: [...packages.keys()].sort(), problems };
}

/**
 * The files the production server starts from: serve.mjs and the built server in outDir.
 * @param {string} outDir
 * @returns {string[]}
 */
export function serverEntries(outDir) {
  return [path.join(root, 'scripts', 'serve.mjs'), path.join(outDir, 'server', 'entry.mjs'), path.join(outDir, 'server', 'runtime.mjs')];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = path.resolve(root, process.argv[2] || process.env.ASTRO_OUT_DIR || 'dist');
  const { files, packages, problems } = checkProdDeps({ entries: serverEntries(outDir) });
  if (problems.length > 0) {
    for (const problem of problems) console.error(`check-prod-deps: ${problem}`);
    process.exit(1);
  }
  console.log(`check-prod-deps: ${files.length} files, ${packages.length} packages, all production dependencies`);
}

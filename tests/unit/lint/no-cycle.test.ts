import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// No import cycle anywhere in src/ (browser and server) or in the local stack: a module never ends
// up importing itself through others (e.g. a tab of the account importing the account page that
// renders it, or a type declared in the module that imports it).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BROWSER_FOLDERS = ['islands', 'stores', 'data', 'domain', 'scripts', 'components', 'integrations'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The project files a module imports: relative specifiers and the `~/` alias (tsconfig.json: `~/*` is `src/*`). */
export function importsOf(file: string, code: string): string[] {
  const specifiers = [
    ...code.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"]((?:\.|~\/)[^'"]+)['"]|import\(\s*['"]((?:\.|~\/)[^'"]+)['"]\s*\)/g),
  ].map((match) => match[1] ?? match[2]!);
  return specifiers.flatMap((specifier) => {
    const base = specifier.startsWith('~/') ? path.join(root, 'src', specifier.slice(2)) : path.resolve(path.dirname(file), specifier);
    const found = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => {
      try {
        return statSync(candidate).isFile();
      } catch {
        return false;
      }
    });
    return found ? [found] : [];
  });
}

/** Every cycle found by a depth-first walk, each as the list of files around it. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('import cycles', () => {
  it('finds a cycle, and only a real one', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(findCycles(graph)).toEqual([['a', 'b', 'c', 'a']]);
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });

  it('reads static, re-exported, type-only and lazy imports', () => {
    const file = path.join(root, 'src/islands/account/AccountApp.tsx');
    const code = [
      "import ProfilePanel from './ProfilePanel.tsx';",
      "import type { AccountTab } from './tabs.ts';",
      "export { ADDRESS_MESSAGES } from '../../stores/account.ts';",
      "import { formatMXN } from '~/domain/money.ts';",
      "const ProductForm = lazy(() => import('../admin/ProductForm.tsx'));",
      "import { useStore } from '@nanostores/react';",
    ].join('\n');
    expect(importsOf(file, code).map((f) => path.relative(root, f))).toEqual([
      'src/islands/account/ProfilePanel.tsx',
      'src/islands/account/tabs.ts',
      'src/stores/account.ts',
      'src/domain/money.ts',
      'src/islands/admin/ProductForm.tsx',
    ]);
  });

  /** The cycles among the TypeScript sources of the given folders (paths from the project root). */
  function cyclesIn(folders: string[], atLeast: number): string[] {
    const files = folders.flatMap((folder) => {
      try {
        return sources(path.join(root, folder));
      } catch {
        return [];
      }
    });
    expect(files.length).toBeGreaterThan(atLeast);
    const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));
    return findCycles(graph).map((cycle) => cycle.map((file) => path.relative(root, file)).join(' → '));
  }

  it('the browser code of src/ has none', () => {
    expect(
      cyclesIn(
        BROWSER_FOLDERS.map((folder) => `src/${folder}`),
        50,
      ),
    ).toEqual([]);
  });

  it('the server code and the local stack have none either', () => {
    expect(cyclesIn(['src/server'], 40)).toEqual([]);
    expect(cyclesIn(['packages/local-supabase/src'], 40)).toEqual([]);
    // The whole of src/ at once: no cycle crosses the layers either.
    expect(cyclesIn(['src'], 150)).toEqual([]);
  });
});

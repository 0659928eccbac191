import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import boundaries of eslint.config.js, checked on small files that are linted as if they
// lived in each folder (the files are never written). The boundaries are checked on resolved
// paths, so each fixture imports a module that exists.
const BOUNDARY = 'import-x/no-restricted-paths';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** The rule ids ESLint reports for `code` as the file `file` (relative to the project root). */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('import boundaries', () => {
  it('an island importing src/server is an error', async () => {
    const code = "import { handle } from '../../server/http/json.ts';\nexport const h = handle;\n";
    const [result] = await eslint.lintText(code, { filePath: path.join(root, 'src/islands/cart/Fixture.tsx') });
    const errors = result!.messages.filter((m) => m.ruleId === BOUNDARY);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.severity).toBe(2);
    expect(errors[0]!.message).toContain('never import src/server');
  });

  it('the `~/` alias is checked like a relative path', async () => {
    const code = "import { handle } from '~/server/http/json.ts';\nexport const h = handle;\n";
    expect(await ruleIds('src/islands/cart/Fixture.tsx', code)).toEqual([BOUNDARY]);
    expect(await ruleIds('src/domain/fixture.ts', "import { cart } from '~/stores/cart.ts';\nexport const c = cart;\n")).toEqual([BOUNDARY]);
    expect(await ruleIds('src/stores/fixture.ts', "import { formatMXN } from '~/domain/money.ts';\nexport const f = formatMXN;\n")).toEqual([]);
  });

  it('a store or a component importing src/server is an error', async () => {
    const code = "import { handle } from '../server/http/json.ts';\nexport const h = handle;\n";
    expect(await ruleIds('src/stores/fixture.ts', code)).toEqual([BOUNDARY]);
    expect(await ruleIds('src/components/fixture.ts', code)).toEqual([BOUNDARY]);
  });

  it('src/domain imports no other layer, no Astro or Supabase, and uses no browser globals', async () => {
    expect(await ruleIds('src/domain/fixture.ts', "import { getSupabase } from '../data/supabase.ts';\nexport const s = getSupabase;\n")).toEqual([BOUNDARY]);
    expect(await ruleIds('src/domain/fixture.ts', "import { createClient } from '@supabase/supabase-js';\nexport const c = createClient;\n")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await ruleIds('src/domain/fixture.ts', "import { SITE_URL } from 'astro:env/client';\nexport const u = SITE_URL;\n")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await ruleIds('src/domain/fixture.ts', 'export const saved = () => localStorage.getItem("cart");\n')).toEqual(['no-restricted-globals']);
    expect(await ruleIds('src/domain/fixture.ts', "import { formatMXN } from './money.ts';\nexport const f = formatMXN;\n")).toEqual([]);
  });

  it('src/data imports only domain; stores import data and domain', async () => {
    expect(await ruleIds('src/data/fixture.ts', "import { $cart } from '../stores/cart.ts';\nexport const c = $cart;\n")).toEqual([BOUNDARY]);
    expect(await ruleIds('src/data/fixture.ts', "import { formatMXN } from '../domain/money.ts';\nexport const f = formatMXN;\n")).toEqual([]);
    expect(await ruleIds('src/stores/fixture.ts', "import { getSupabase } from '../data/supabase.ts';\nexport const s = getSupabase;\n")).toEqual([]);
    expect(await ruleIds('src/stores/fixture.ts', "import X from '../islands/cart/CartSummary.tsx';\nexport const x = X;\n")).toEqual([BOUNDARY]);
  });

  it('src/server imports domain and its own folder, never islands, stores or components', async () => {
    expect(await ruleIds('src/server/fixture.ts', "import { $cart } from '../stores/cart.ts';\nexport const c = $cart;\n")).toEqual([BOUNDARY]);
    expect(await ruleIds('src/server/fixture.ts', "import { getSupabase } from '../data/supabase.ts';\nexport const g = getSupabase;\n")).toEqual([BOUNDARY]);
    // The one allowed exception: the generated table types.
    expect(await ruleIds('src/server/fixture.ts', "import type { Database } from '../data/database.types.ts';\nexport type D = Database;\n")).toEqual([]);
    expect(
      await ruleIds(
        'src/server/payments/fixture.ts',
        "import { formatMXN } from '../../domain/money.ts';\nimport { handle } from '../http/json.ts';\nexport const f = [formatMXN, handle];\n",
      ),
    ).toEqual([]);
  });

  it('an Astro component importing src/server is an error, as in a .ts file', async () => {
    const code = "---\nimport { handle } from '../../server/http/json.ts';\nconst h = handle;\n---\n<p>{String(h)}</p>\n";
    expect(await ruleIds('src/components/catalog/Fixture.astro', code)).toEqual([BOUNDARY]);
    const fine = "---\nimport { formatMXN } from '../../domain/money.ts';\n---\n<p>{formatMXN(1)}</p>\n";
    expect(await ruleIds('src/components/catalog/Fixture.astro', fine)).toEqual([]);
  });

  it('a server or local-stack module over 400 lines is an error', async () => {
    const long = Array.from({ length: 401 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n';
    expect(await ruleIds('src/server/orders/fixture.ts', long)).toEqual(['max-lines']);
    expect(await ruleIds('packages/local-supabase/src/fixture.ts', long)).toEqual(['max-lines']);
    expect(await ruleIds('src/domain/fixture.ts', long)).toEqual([]);
  });
});

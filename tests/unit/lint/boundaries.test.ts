import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The import boundaries of eslint.config.js, checked on small files that are linted as if they
// lived in each folder (the files are never written).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** The rule ids ESLint reports for `code` as the file `file` (relative to the project root). */
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('import boundaries', () => {
  it('an island importing src/server is an error', async () => {
    const code = "import { handle } from '../../server/http.ts';\nexport const h = handle;\n";
    const [result] = await eslint.lintText(code, { filePath: path.join(root, 'src/islands/cart/Fixture.tsx') });
    const errors = result!.messages.filter((m) => m.ruleId === 'no-restricted-imports');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.severity).toBe(2);
    expect(errors[0]!.message).toContain('never imports src/server');
  });

  it('a store or a component importing src/server is an error', async () => {
    const code = "import { handle } from '../server/http.ts';\nexport const h = handle;\n";
    expect(await ruleIds('src/stores/fixture.ts', code)).toEqual(['no-restricted-imports']);
    expect(await ruleIds('src/components/fixture.ts', code)).toEqual(['no-restricted-imports']);
  });

  it('src/domain imports no other layer, no Astro or Supabase, and uses no browser globals', async () => {
    expect(await ruleIds('src/domain/fixture.ts', "import { supabase } from '../data/supabase.ts';\nexport const s = supabase;\n")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await ruleIds('src/domain/fixture.ts', "import { createClient } from '@supabase/supabase-js';\nexport const c = createClient;\n")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await ruleIds('src/domain/fixture.ts', "import { SITE_URL } from 'astro:env/client';\nexport const u = SITE_URL;\n")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await ruleIds('src/domain/fixture.ts', 'export const saved = () => localStorage.getItem("cart");\n')).toEqual([
      'no-restricted-globals',
    ]);
    expect(await ruleIds('src/domain/fixture.ts', "import { formatMXN } from './money.ts';\nexport const f = formatMXN;\n")).toEqual([]);
  });

  it('src/data imports only domain; stores import data and domain', async () => {
    expect(await ruleIds('src/data/fixture.ts', "import { cart } from '../stores/cart.ts';\nexport const c = cart;\n")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await ruleIds('src/data/fixture.ts', "import { formatMXN } from '../domain/money.ts';\nexport const f = formatMXN;\n")).toEqual([]);
    expect(await ruleIds('src/stores/fixture.ts', "import { supabase } from '../data/supabase.ts';\nexport const s = supabase;\n")).toEqual([]);
    expect(await ruleIds('src/stores/fixture.ts', "import X from '../islands/cart/CartPage.tsx';\nexport const x = X;\n")).toEqual([
      'no-restricted-imports',
    ]);
  });

  it('src/server imports domain and its own folder, never islands, stores or components', async () => {
    expect(await ruleIds('src/server/fixture.ts', "import { cart } from '../stores/cart.ts';\nexport const c = cart;\n")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await ruleIds('src/server/fixture.ts', "import { getSupabase } from '../data/supabase.ts';\nexport const g = getSupabase;\n")).toEqual([
      'no-restricted-imports',
    ]);
    // The one allowed exception: the generated table types.
    expect(await ruleIds('src/server/fixture.ts', "import type { Database } from '../data/database.types.ts';\nexport type D = Database;\n")).toEqual([]);
    expect(await ruleIds('src/server/payments/fixture.ts', "import { formatMXN } from '../../domain/money.ts';\nimport { handle } from '../http.ts';\nexport const f = [formatMXN, handle];\n")).toEqual([]);
  });
});

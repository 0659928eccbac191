import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The islands keep their functions short (eslint.config.js, max-lines-per-function 120): a
// component that grows past it fails the lint, wherever in src/islands it lives.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const eslint = new ESLint({ cwd: root });

/** A component of `lines` lines in all. */
function component(lines: number): string {
  const body = Array.from({ length: lines - 3 }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const used = Array.from({ length: lines - 3 }, (_, i) => `v${i}`).join(' + ');
  return `export default function Big() {\n${body}\n  return <p>{${used}}</p>;\n}\n`;
}

async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`);
}

describe('long functions in the islands', () => {
  it('a component over 120 lines is an error in any island folder', async () => {
    for (const file of ['src/islands/account/Fixture.tsx', 'src/islands/header-search/Fixture.tsx', 'src/islands/admin/Fixture.tsx']) {
      expect(await ruleIds(file, component(130))).toContain('max-lines-per-function');
    }
  });

  it('one of 120 lines is fine', async () => {
    expect(await ruleIds('src/islands/account/Fixture.tsx', component(120))).toEqual([]);
  });
});

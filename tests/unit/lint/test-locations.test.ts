/**
 * Where unit tests live (tests/README.md): the test of src/X/Y.ts is tests/unit/X/Y.test.ts, the
 * test of a script, scripts/X/Y.ts (or .mjs), is tests/unit/X/Y.test.ts too; tests of a subject
 * that is not one module stay in the subject folders below. A test named after a module that does
 * not exist (moved, renamed, or a typo) fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const unitDir = path.join(root, 'tests/unit');

/** The folders of tests/unit named for a subject rather than a module path (see tests/README.md). */
export const SUBJECT_FOLDERS: Record<string, string> = {
  catalog: 'the catalogue as the shopper meets it, across the pages, search, explore and the buy box',
  lint: 'rules over the source tree: import boundaries, cycles, function length, a pure src/domain, these locations',
};

const MODULE_ENDINGS = ['.ts', '.tsx', '.mts', '.js', '.mjs'];
const TEST_FILE = /\.test\.tsx?$/;

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return TEST_FILE.test(entry.name) ? [path.relative(unitDir, full).split(path.sep).join('/')] : [];
  });
}

/** What is wrong with a test's location, or null: `file` is relative to tests/unit. */
export function misplaced(file: string, exists: (relative: string) => boolean): string | null {
  const [folder] = file.split('/');
  if (file.includes('/') && folder! in SUBJECT_FOLDERS) return null;
  const modulePath = file.replace(TEST_FILE, '');
  const candidates = ['src', 'scripts'].flatMap((base) => MODULE_ENDINGS.map((ending) => `${base}/${modulePath}${ending}`));
  if (candidates.some(exists)) return null;
  return `tests/unit/${file} tests no module: neither src/${modulePath}.ts(x) nor scripts/${modulePath}.ts/.mjs exists, and ${folder} is not a subject folder`;
}

describe('unit test locations', () => {
  it('names every unit test after the module it tests, or keeps it in a subject folder', () => {
    const files = testFiles(unitDir);
    expect(files.length).toBeGreaterThan(0);
    const problems = files.map((file) => misplaced(file, (relative) => fs.existsSync(path.join(root, relative)))).filter((p) => p !== null);
    expect(problems).toEqual([]);
  });

  it('catches a test named after a module that does not exist', () => {
    const exists = (relative: string) => ['src/domain/money.ts', 'src/islands/admin/ProductForm.tsx', 'scripts/load/cpu.ts'].includes(relative);
    expect(misplaced('domain/money.test.ts', exists)).toBeNull();
    expect(misplaced('islands/admin/ProductForm.test.tsx', exists)).toBeNull();
    expect(misplaced('load/cpu.test.ts', exists)).toBeNull();
    expect(misplaced('lint/anything.test.ts', exists)).toBeNull();
    expect(misplaced('domain/monye.test.ts', exists)).toMatch(/^tests\/unit\/domain\/monye\.test\.ts tests no module/);
    expect(misplaced('payments/simulated.test.ts', exists)).toMatch(/payments is not a subject folder/);
    expect(misplaced('lint.test.ts', exists)).not.toBeNull();
  });

  it('documents every subject folder in tests/README.md', () => {
    const readme = fs.readFileSync(path.join(root, 'tests/README.md'), 'utf8');
    for (const folder of Object.keys(SUBJECT_FOLDERS)) expect(readme).toContain(`tests/unit/${folder}/`);
  });
});

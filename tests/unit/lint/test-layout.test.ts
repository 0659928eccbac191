/**
 * Every module with logic has its test where tests/README.md says: the test of src/X/Y.ts is
 * tests/unit/X/Y.test.ts, for every module of src/domain and src/stores and every module of
 * src/server that exports a function or a class. And no file of the server or of the local stack
 * grows past MAX_LINES: a file that long holds more than one thing, to be split along its seams.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Folders whose every module needs its mirrored test. */
const EVERY_MODULE = ['src/domain', 'src/stores'];
/** Folders whose modules need one when they export a function or a class (types and constants need none). */
const MODULES_WITH_FUNCTIONS = ['src/server'];
/** Folders no file of which may be longer than MAX_LINES. */
const LINE_LIMITED = ['src/server', 'packages/local-supabase/src'];
export const MAX_LINES = 400;

/**
 * Modules of EVERY_MODULE with no logic to test, and why. Only types and constants belong here:
 * a module with a function belongs in a test file.
 */
const NO_LOGIC: Record<string, string> = {
  'src/domain/brand.ts': "the shop's name, tagline and description",
  'src/domain/favorite-heart-selector.ts': "the CSS selector of a heart button, for the header's inline script",
  'src/domain/local-stack.ts': "the local stack's default URL",
  'src/domain/payments-config.ts': 'the type of the payment settings the checkout page receives',
  'src/domain/refunds.ts': 'the list of refund ways and the type of the refund options an order allows',
};

const SOURCE = /\.tsx?$/;
const DECLARATIONS = /\.d\.ts$/;
/** An exported function or class: `export function`, `export async function`, `export class`, `export const f = (…) =>` or `= function`. */
const EXPORTS_LOGIC =
  /^export\s+(?:default\s+)?(?:async\s+function|function|(?:abstract\s+)?class)\b|^export\s+const\s+\w+\s*(?::[^=]+)?=\s*(?:async\s*)?(?:\([^)]*\)\s*(?::[^=]+)?=>|\w+\s*=>|function\b)/m;

function filesUnder(dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return filesUnder(relative);
    return [relative];
  });
}

/** Whether a module's source exports a function or a class. */
export function exportsLogic(source: string): boolean {
  return EXPORTS_LOGIC.test(source);
}

/** The mirrored test of a module: src/X/Y.ts → tests/unit/X/Y.test.ts. */
export function mirroredTest(module: string): string {
  return module.replace(/^src\//, 'tests/unit/').replace(SOURCE, '.test.ts');
}

/** The modules under these folders that need a test of their own. */
function modulesNeedingTests(read: (file: string) => string): string[] {
  const modules = (dirs: string[]) => dirs.flatMap(filesUnder).filter((file) => SOURCE.test(file) && !DECLARATIONS.test(file));
  return [...modules(EVERY_MODULE), ...modules(MODULES_WITH_FUNCTIONS).filter((file) => exportsLogic(read(file)))].sort();
}

/** What is wrong with the test layout: one line per module without its mirrored test. */
export function missingTests(modules: string[], exists: (file: string) => boolean, noLogic: Record<string, string> = NO_LOGIC): string[] {
  return modules.filter((module) => !(module in noLogic) && !exists(mirroredTest(module))).map((module) => `${module} has no test at ${mirroredTest(module)}`);
}

/** The files longer than `max` lines, with their length. */
export function overLong(files: Array<{ file: string; text: string }>, max = MAX_LINES): string[] {
  return files
    .map(({ file, text }) => ({ file, lines: text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length }))
    .filter(({ lines }) => lines > max)
    .map(({ file, lines }) => `${file}: ${lines} lines (at most ${max})`);
}

const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

describe('test layout', () => {
  it('has a mirrored test for every module of src/domain and src/stores, and for every server module with functions', () => {
    const modules = modulesNeedingTests(read);
    expect(modules.length).toBeGreaterThan(50);
    expect(missingTests(modules, (file) => fs.existsSync(path.join(root, file)))).toEqual([]);
  });

  it('allows only modules that exist and export no function or class to go without a test', () => {
    for (const module of Object.keys(NO_LOGIC)) {
      expect(fs.existsSync(path.join(root, module)), module).toBe(true);
      expect(exportsLogic(read(module)), module).toBe(false);
    }
  });

  it(`keeps every file of ${LINE_LIMITED.join(' and ')} within ${MAX_LINES} lines`, () => {
    const files = LINE_LIMITED.flatMap(filesUnder).filter((file) => SOURCE.test(file));
    expect(files.length).toBeGreaterThan(10);
    expect(overLong(files.map((file) => ({ file, text: read(file) })))).toEqual([]);
  });

  it('catches a module without its test, a missing test in the allow-list only for listed modules, and a long file', () => {
    const exists = (file: string) => file === 'tests/unit/domain/money.test.ts';
    expect(missingTests(['src/domain/money.ts', 'src/domain/brand.ts'], exists)).toEqual([]);
    expect(missingTests(['src/domain/pricing.ts', 'src/server/http/auth.ts'], exists)).toEqual([
      'src/domain/pricing.ts has no test at tests/unit/domain/pricing.test.ts',
      'src/server/http/auth.ts has no test at tests/unit/server/http/auth.test.ts',
    ]);
    expect(overLong([{ file: 'a.ts', text: 'x\n'.repeat(MAX_LINES) }])).toEqual([]);
    expect(overLong([{ file: 'b.ts', text: 'x\n'.repeat(MAX_LINES + 1) }])).toEqual([`b.ts: ${MAX_LINES + 1} lines (at most ${MAX_LINES})`]);
  });

  it('tells a module with functions from one of types and constants', () => {
    expect(exportsLogic('export function a() {}')).toBe(true);
    expect(exportsLogic('export async function a() {}')).toBe(true);
    expect(exportsLogic('export class A {}')).toBe(true);
    expect(exportsLogic('export const a = (x: number): number => x;')).toBe(true);
    expect(exportsLogic('export const a = async () => 1;')).toBe(true);
    expect(exportsLogic('export type A = { b: string };\nexport const B = 1;\nexport interface C {}\nconst f = () => 1;')).toBe(false);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const domainDir = new URL('../../../src/domain/', import.meta.url);
const files = readdirSync(domainDir).filter((name) => name.endsWith('.ts'));
// Modules one folder down (search/, validation/): their imports stay inside src/domain.
const nestedFiles = readdirSync(domainDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(join(domainDir.pathname, dir.name))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => `${dir.name}/${name}`),
  );

function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  for (const match of source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)) {
    specifiers.push(match[1] ?? '');
  }
  for (const match of source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)) specifiers.push(match[1] ?? '');
  return specifiers;
}

/** The shop's texts (src/i18n/), constants that import nothing: the one place domain may look outside itself. */
function isCatalog(specifier: string): boolean {
  return /^(~\/|(\.\.\/)+)i18n\/[\w-]+(\.ts)?$/.test(specifier);
}

describe('src/domain stays pure', () => {
  it('has the expected modules', () => {
    expect(files).toEqual(
      expect.arrayContaining(['catalog.ts', 'images.ts', 'money.ts', 'orders.ts', 'password.ts', 'pricing.ts', 'products.ts', 'validation.ts']),
    );
  });

  it.each(files)('%s imports only sibling modules, the message catalogue and zod (or its zod/mini entry)', (file) => {
    const source = readFileSync(join(domainDir.pathname, file), 'utf8');
    for (const specifier of importsOf(source)) {
      const allowed = specifier.startsWith('./') || isCatalog(specifier) || specifier === 'zod' || specifier === 'zod/mini';
      expect(allowed, `${file} imports ${specifier}`).toBe(true);
    }
  });

  it.each(files)('%s uses no browser globals', (file) => {
    const source = readFileSync(join(domainDir.pathname, file), 'utf8');
    expect(source).not.toMatch(/\b(window|document|localStorage|sessionStorage|navigator|fetch)\s*[.(]/);
  });

  it.each(nestedFiles)('%s imports only src/domain modules, the message catalogue and zod (or its zod/mini entry)', (file) => {
    const source = readFileSync(join(domainDir.pathname, file), 'utf8');
    for (const specifier of importsOf(source)) {
      const target = relative(domainDir.pathname, resolve(dirname(join(domainDir.pathname, file)), specifier));
      const inside = specifier.startsWith('.') && !target.startsWith('..');
      expect(inside || isCatalog(specifier) || specifier === 'zod' || specifier === 'zod/mini', `${file} imports ${specifier}`).toBe(true);
    }
  });

  it.each(nestedFiles)('%s uses no browser globals', (file) => {
    const source = readFileSync(join(domainDir.pathname, file), 'utf8');
    expect(source).not.toMatch(/\b(window|document|localStorage|sessionStorage|navigator|fetch)\s*[.(]/);
  });
});

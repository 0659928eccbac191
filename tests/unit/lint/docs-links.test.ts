import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README stays a page a newcomer reads (run, scripts, environment, layout, architecture in
// short); the rest lives in docs/. Every relative link in them opens a file that exists, and a
// link to a heading (`docs/payments.md#oxxo`) names a heading of that file.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** The relative links of a Markdown file that do not resolve, as 'link (why)'. */
export function brokenLinks(file: string, markdown: string): string[] {
  const broken: string[] = [];
  // Links inside code spans and fenced blocks are examples, not links.
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  for (const [, link] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(link!)) continue;
    const [target, anchor] = link!.split('#') as [string, string | undefined];
    const resolved = target === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
    if (!existsSync(resolved)) {
      broken.push(`${link} (no such file)`);
      continue;
    }
    if (anchor && resolved.endsWith('.md')) {
      const headings = [...readFileSync(resolved, 'utf8').matchAll(/^#+\s+(.+)$/gm)].map((m) => headingAnchor(m[1]!));
      if (!headings.includes(anchor)) broken.push(`${link} (no such heading)`);
    }
  }
  return broken;
}

describe('the README and docs/', () => {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(root, 'docs', name));
  const files = [path.join(root, 'README.md'), path.join(root, 'tests', 'README.md'), ...docs].filter((file) => existsSync(file));

  it('finds a broken link, a missing heading and skips code and web links', () => {
    const file = path.join(root, 'README.md');
    const markdown = [
      '[ok](docs/payments.md) [gone](docs/nothing.md) [web](https://example.com/x.md)',
      '`[in code](docs/nothing-either.md)`',
      '[heading](#no-such-heading-here)',
    ].join('\n');
    expect(brokenLinks(file, markdown)).toEqual(['docs/nothing.md (no such file)', '#no-such-heading-here (no such heading)']);
    expect(headingAnchor('Pagos: OXXO y saldo a favor')).toBe('pagos-oxxo-y-saldo-a-favor');
  });

  it('the README is at most 350 lines', () => {
    expect(readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(350);
  });

  it('every relative link resolves', () => {
    expect(files.length).toBeGreaterThan(5);
    const broken = files.flatMap((file) => brokenLinks(file, readFileSync(file, 'utf8')).map((why) => `${path.relative(root, file)}: ${why}`));
    expect(broken).toEqual([]);
  });
});

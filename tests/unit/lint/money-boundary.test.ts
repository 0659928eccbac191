/**
 * Money becomes Centavos once. A price read from the database is turned into Centavos where it is
 * read (src/data/ and the server's row readers, `*-row.ts`), a peso amount typed in a form or an
 * address goes through src/domain/money.ts, and everything else holds Centavos. So outside those
 * places no code converts pesos itself: no toCentavos or tryToCentavos, no multiplying or dividing by 100, no
 * `as Centavos` that re-tags a plain number.
 *
 * The pattern is money-specific: `* 1000` and `/ 1000` are seconds and milliseconds, and `100_000`
 * is a count, so a 100 followed by another digit, `_` or `.` does not match. Percentages go through
 * src/domain/percent.ts, the one module allowed to multiply by 100 for something that is not money.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url).pathname;
const srcDir = join(root, 'src');

/** Where pesos may become Centavos (and back). */
function isBoundary(path: string): boolean {
  return path.startsWith('src/data/') || path.endsWith('-row.ts') || path === 'src/domain/money.ts' || path === 'src/domain/percent.ts';
}

const MONEY_PATTERNS: ReadonlyArray<[string, RegExp]> = [
  ['toCentavos', /\b(?:toCentavos|tryToCentavos)\b/],
  ['× 100', /\*\s?100(?![\d_.])/],
  ['÷ 100', /\/\s?100(?![\d_.])/],
  ['re-tagged Centavos', /\bas\s+Centavos\b/],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|astro|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The text with every comment replaced by spaces (line breaks kept, so line numbers still hold). */
function blankRanges(text: string, ranges: ReadonlyArray<{ pos: number; end: number }>): string {
  const chars = [...text];
  const seen = new Set<number>();
  for (const { pos, end } of ranges) {
    if (seen.has(pos)) continue;
    seen.add(pos);
    for (let i = pos; i < end; i++) if (chars[i] !== '\n') chars[i] = ' ';
  }
  return chars.join('');
}

/** TypeScript or TSX without its comments, found by TypeScript's own parser (strings, regexes and JSX text stay). */
function stripScriptComments(text: string, fileName: string): string {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind);
  const ranges: ts.CommentRange[] = [];
  const visit = (node: ts.Node) => {
    if (node.kind !== ts.SyntaxKind.JsxText) {
      ranges.push(...(ts.getLeadingCommentRanges(text, node.pos) ?? []), ...(ts.getTrailingCommentRanges(text, node.end) ?? []));
    }
    for (const child of node.getChildren(file)) visit(child);
  };
  visit(file);
  return blankRanges(text, ranges);
}

/** An Astro component without comments: its front matter as TypeScript, its template's HTML and JSX comments. */
function stripAstroComments(text: string): string {
  const fence = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  const frontEnd = fence ? fence[0].length : 0;
  const front = fence ? stripScriptComments(text.slice(0, frontEnd), 'component.ts') : '';
  const blank = (match: string) => match.replace(/[^\n]/g, ' ');
  const template = text
    .slice(frontEnd)
    .replace(/<!--[\s\S]*?-->/g, blank)
    .replace(/\/\*[\s\S]*?\*\//g, blank);
  return front + template;
}

/** Code without comments, by the kind of file. */
function stripComments(text: string, fileName: string): string {
  return fileName.endsWith('.astro') ? stripAstroComments(text) : stripScriptComments(text, fileName);
}

/** `file:line  what  code` for each line of code that converts money outside the boundary. */
function moneyConversions(path: string, text: string): string[] {
  const found: string[] = [];
  // Most files have nothing that looks like money: only those that do are parsed for their comments.
  if (!MONEY_PATTERNS.some(([, pattern]) => pattern.test(text))) return found;
  stripComments(text, path)
    .split('\n')
    .forEach((line, index) => {
      for (const [what, pattern] of MONEY_PATTERNS) {
        if (pattern.test(line)) found.push(`${path}:${index + 1}  ${what}  ${line.trim()}`);
      }
    });
  return found;
}

describe('money becomes Centavos at the data boundary only', () => {
  it('no file of src/ outside src/data/, the *-row.ts readers and money.ts converts pesos itself', () => {
    const found = sourceFiles(srcDir)
      .map((file) => relative(root, file))
      .filter((path) => !isBoundary(path))
      .flatMap((path) => moneyConversions(path, readFileSync(join(root, path), 'utf8')));
    expect(found, `Money converted outside the boundary (use src/domain/money.ts or parse it where it is read):\n${found.join('\n')}`).toEqual([]);
  });

  it('finds a conversion in code and ignores the same text in comments, strings stay code', () => {
    const code = [
      '// price * 100 in a comment',
      '/* toCentavos(x) in a block */',
      'const cents = tryToCentavos(price);',
      'const pesos = cents / 100;',
      'const amount = (pesos * 100) as Centavos;',
      'const ms = seconds * 1000;',
      'const count = 100_000 / 100_000;',
      'const url = "https://example.com/a" // 1 / 100',
    ].join('\n');
    expect(moneyConversions('src/x.ts', code).map((line) => line.split('  ').slice(0, 2).join(' '))).toEqual([
      'src/x.ts:3 toCentavos',
      'src/x.ts:4 ÷ 100',
      'src/x.ts:5 × 100',
      'src/x.ts:5 re-tagged Centavos',
    ]);
    const astro = ['---', 'const a = b / 100; // c * 100', '---', '<!-- d * 100 -->', '<p>{/* e / 100 */}{f * 100}</p>'].join('\n');
    expect(moneyConversions('src/x.astro', astro).map((line) => line.split('  ')[0])).toEqual(['src/x.astro:2', 'src/x.astro:5']);
  });
});

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { prerenderStrings, STREAMING_LINE, withoutPrerenderStreaming } from '~/integrations/prerender-strings.ts';

// The module of the installed Astro the plugin rewrites (a new Astro without the line fails here).
const astroRoot = path.dirname(createRequire(import.meta.url).resolve('astro/package.json'));
const ENVIRONMENT = path.join(astroRoot, 'dist', 'core', 'build', 'environment.js');

type Transform = (code: string, id: string) => { code: string } | null;
const transform = prerenderStrings().transform as unknown as Transform;

describe('prerendered pages rendered to strings', () => {
  it("turns streaming off in the installed Astro's build environment, and nothing else", () => {
    const code = fs.readFileSync(ENVIRONMENT, 'utf8');
    expect(code.split(STREAMING_LINE)).toHaveLength(2);
    const changed = withoutPrerenderStreaming(code);
    expect(changed).not.toContain('manifest.serverLike,\n');
    expect(changed).toContain('defaultStreaming: () => false');
    // Only that line differs.
    const before = code.split('\n');
    const after = changed.split('\n');
    expect(after).toHaveLength(before.length);
    expect(after.filter((line, i) => line !== before[i])).toEqual([expect.stringContaining('defaultStreaming: () => false')]);
  });

  it('fails the build when the line is gone, rather than streaming again', () => {
    expect(() => withoutPrerenderStreaming('export const env = { defaultStreaming: () => true };')).toThrow(/no longer has/);
  });

  it('rewrites that module wherever the bundler finds it, and leaves every other module alone', () => {
    const code = fs.readFileSync(ENVIRONMENT, 'utf8');
    expect(transform(code, ENVIRONMENT)?.code).toContain('defaultStreaming: () => false');
    expect(transform(code, `${ENVIRONMENT}?v=1234`)?.code).toContain('defaultStreaming: () => false');
    expect(transform(code, path.join(astroRoot, 'dist', 'core', 'environment', 'production.js'))).toBeNull();
    expect(transform(code, '/shop/src/pages/index.astro')).toBeNull();
  });
});

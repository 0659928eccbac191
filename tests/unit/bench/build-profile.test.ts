/**
 * The build's profile by phase (scripts/bench/build-profile.ts): each phase's time from its first
 * line to the next phase's, its peak memory from the samples in it, and page lines of two parts
 * interleaved counted by the kind of page they name.
 */
import { describe, expect, it } from 'vitest';
import { buildProfile, phaseOfLine } from '../../../scripts/bench/build-profile.ts';

describe('the phase of a build line', () => {
  it('reads the snapshot, bundling, planning, page kinds and the merge', () => {
    expect(phaseOfLine('[catalog-snapshot] 10000 productos', 'startup')).toBe('snapshot');
    expect(phaseOfLine('\x1b[32m[build]\x1b[39m Building server entrypoints...', 'snapshot')).toBe('bundling');
    expect(phaseOfLine('[build] generating static routes', 'bundling')).toBe('planning');
    expect(phaseOfLine('  ├─ /product/pk-etb-1/index.html (+3ms)', 'planning')).toBe('product_pages');
    expect(phaseOfLine('[2/2]   ├─ /franchise/pokemon/product-types/sale/products/index.html', 'product_pages')).toBe('other_pages');
    expect(phaseOfLine('  └─ /search/6170.json (+1ms)', 'other_pages')).toBe('search_files');
    expect(phaseOfLine('Compilación en 2 partes: 5000 páginas de las otras partes movidas a /x/client.', 'search_files')).toBe('merging');
    // A late [vite] line or a snapshot line once pages are written changes nothing.
    expect(phaseOfLine('[vite] ✓ built in 2.1s', 'product_pages')).toBeNull();
    expect(phaseOfLine('[catalog-snapshot] algo', 'other_pages')).toBeNull();
    expect(phaseOfLine('any other line', 'bundling')).toBeNull();
    // Vite's re-optimizing before the content sync (a changed configuration, a fresh clone) is not bundling.
    expect(phaseOfLine('[1/2] 19:56:07 [vite] Re-optimizing dependencies because vite config has changed', 'startup')).toBeNull();
    expect(phaseOfLine('[vite] ✓ built in 2.1s', 'snapshot')).toBe('bundling');
  });
});

describe('the build profile', () => {
  it('gives each phase its time and the peak of the memory sampled in it', () => {
    const lines = [
      { t: 1, line: '[content] Syncing content' },
      { t: 4, line: '[build] Building server entrypoints...' },
      { t: 10, line: '[build] generating static routes' },
      { t: 12, line: '├─ /product/a/index.html' },
      { t: 13, line: '[1/2] ├─ /index.html' },
      { t: 14, line: '[2/2] ├─ /product/b/index.html' },
      { t: 16, line: '├─ /search/61.json' },
      { t: 17, line: 'Compilación en 2 partes: 1 páginas de las otras partes movidas a /x.' },
    ];
    const samples = [
      { t: 0.5, kb: 100 * 1024 },
      { t: 2, kb: 500 * 1024 },
      { t: 5, kb: 1024 * 1024 },
      { t: 11, kb: 700 * 1024 },
      { t: 12.5, kb: 2048 * 1024 },
      { t: 13.5, kb: 900 * 1024 },
      { t: 15, kb: 1536 * 1024 },
      { t: 17.5, kb: 300 * 1024 },
    ];
    expect(buildProfile(lines, samples, 18)).toEqual([
      { phase: 'startup', seconds: 1, peakGb: 0.1 },
      { phase: 'snapshot', seconds: 3, peakGb: 0.49 },
      { phase: 'bundling', seconds: 6, peakGb: 1 },
      { phase: 'planning', seconds: 2, peakGb: 0.68 },
      // 12–13 and 14–16: the product pages of both parts.
      { phase: 'product_pages', seconds: 3, peakGb: 2 },
      { phase: 'other_pages', seconds: 1, peakGb: 0.88 },
      { phase: 'search_files', seconds: 1, peakGb: null },
      { phase: 'merging', seconds: 1, peakGb: 0.29 },
    ]);
  });

  it('adds up to the whole build and leaves out the phases never seen', () => {
    // A sample of 0 kB (the processes gone) is no measurement.
    const profile = buildProfile([{ t: 2, line: '├─ /index.html' }], [{ t: 4.9, kb: 0 }], 5);
    expect(profile).toEqual([
      { phase: 'startup', seconds: 2, peakGb: null },
      { phase: 'other_pages', seconds: 3, peakGb: null },
    ]);
  });
});

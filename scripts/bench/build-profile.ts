/**
 * The full build's profile by phase, from what the build prints and the memory sampled while it
 * runs: the time from one phase's first line to the next phase's is that phase's, and the peak of
 * the samples in it is its memory. A build in parts prints its parts' lines interleaved; a page
 * line counts for the kind of page it names, so product pages, other pages and the search files
 * add up across the parts. Pure: the bench hands it the lines and samples with their times.
 */

/** The phases, in the order a build goes through them. */
export const BUILD_PHASES = ['startup', 'snapshot', 'bundling', 'planning', 'product_pages', 'other_pages', 'search_files', 'merging'] as const;
export type BuildPhase = (typeof BUILD_PHASES)[number];

/** A line of the build's output and when it arrived (seconds from the build's start). */
export interface TimedLine {
  t: number;
  line: string;
}

/** A memory sample of the build's processes, summed (seconds from the start, kB). */
export interface MemorySample {
  t: number;
  kb: number;
}

export interface PhaseFigure {
  phase: BuildPhase;
  seconds: number;
  /** The most memory sampled in the phase, GB; null when no sample fell in it. */
  peakGb: number | null;
}

// eslint-disable-next-line no-control-regex -- strips the ANSI colour codes astro prints (ESC is \x1b)
const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '');

/** The phase a line starts or continues, given the phase before it; null when it says nothing of one. */
export function phaseOfLine(line: string, current: BuildPhase): BuildPhase | null {
  const text = plain(line);
  const page = /[├└]─ (\/\S*)/.exec(text)?.[1];
  if (page) {
    if (page.startsWith('/product/')) return 'product_pages';
    if (page.startsWith('/search/') || page.startsWith('/search-index.json')) return 'search_files';
    return 'other_pages';
  }
  if (/prerendering static routes|generating static routes/i.test(text))
    return current === 'startup' || current === 'snapshot' || current === 'bundling' ? 'planning' : null;
  if (/Compilación en \d+ partes|\[@astrojs\/sitemap\]|Complete!/.test(text)) return 'merging';
  const early = current === 'startup' || current === 'snapshot';
  if (/\[build\] Building (server|client)/.test(text) && (early || current === 'bundling')) return 'bundling';
  // A [vite] line before the snapshot ('Re-optimizing dependencies…') is not bundling.
  if (/\[vite\]/.test(text) && (current === 'snapshot' || current === 'bundling')) return 'bundling';
  if (/\[content\]|\[catalog-snapshot/.test(text) && early) return 'snapshot';
  return null;
}

/** Each phase's time and peak memory over a build of `seconds`, in BUILD_PHASES order (phases never seen left out). */
export function buildProfile(lines: readonly TimedLine[], samples: readonly MemorySample[], seconds: number): PhaseFigure[] {
  const spans: Array<{ phase: BuildPhase; from: number; to: number }> = [];
  let current: BuildPhase = 'startup';
  let from = 0;
  for (const { t, line } of lines) {
    const next = phaseOfLine(line, current);
    if (next === null || next === current) continue;
    spans.push({ phase: current, from, to: t });
    current = next;
    from = t;
  }
  spans.push({ phase: current, from, to: seconds });
  const figures: PhaseFigure[] = [];
  for (const phase of BUILD_PHASES) {
    const mine = spans.filter((span) => span.phase === phase);
    if (mine.length === 0) continue;
    // A sample of 0 kB was taken after the processes had ended (ps found none): not a measurement.
    const inPhase = samples.filter((s) => s.kb > 0 && mine.some((span) => s.t >= span.from && s.t < span.to));
    const peakKb = inPhase.reduce((most, s) => Math.max(most, s.kb), 0);
    figures.push({
      phase,
      seconds: Number(mine.reduce((sum, span) => sum + (span.to - span.from), 0).toFixed(1)),
      peakGb: inPhase.length > 0 ? Number((peakKb / 1024 / 1024).toFixed(2)) : null,
    });
  }
  return figures;
}

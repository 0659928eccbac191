/**
 * The site bench's figures as one JSON document (`BENCH_JSON=FILE npx tsx scripts/bench/site.ts`),
 * comparable across machines: each time budget is stated for a machine of Lighthouse
 * `benchmarkIndex` REFERENCE_INDEX and scaled by the index measured in the run (a machine twice as
 * fast gets half the time), and the build is judged against the floor built in the same run (a
 * bare Astro site with as many one-template pages), not against seconds. Pure: no I/O.
 */

/** The Lighthouse `benchmarkIndex` the time budgets are stated for. */
export const REFERENCE_INDEX = 1800;

/** The most the shop's full build may take, as a multiple of the floor's time in the same run. */
const FLOOR_RATIO_GOAL = 2;

/** A bare Astro site with as many one-template pages, built in the same run. */
export interface Floor {
  pages: number;
  seconds: number;
  gb: number;
}

/** What the site bench measured; null where a run did not measure it (a reused build, no offers…). */
export interface BenchFigures {
  products: number;
  /** When the run started, ISO 8601. */
  date: string;
  /** Lighthouse's `benchmarkIndex` of the run (the median of its runs), null without Lighthouse. */
  cpuIndex: number | null;
  /** The 1-minute load average at the start of the run. */
  loadAverage: number;
  floor: Floor | null;
  build: { seconds: number; gb: number } | null;
  /** The first edit after the build (the server reads its catalogue copy) and a second one; `mode` as PublishResult's. */
  edit: {
    seconds: number;
    files: number;
    warmSeconds?: number;
    mode?: string | null;
    allFilesSeconds?: number;
    searchFinds?: boolean;
    /** The first edit until /explore finds the product by its new name. */
    exploreSeconds?: number | null;
    /** The slowest answer of the server to another page, asked for every 50 ms during the edits. */
    slowestMs?: number;
    /** The same while the server reads the served catalogue for its edits (after a build, and when it starts). */
    warmSlowestMs?: number;
  } | null;
  searchFirstKeystrokeMs: number | null;
  exploreFilterP95Ms: number | null;
  /** The same two with Chromium's CPU throttled 4× (CDP's Emulation.setCPUThrottlingRate); null when not measured. */
  searchFirstKeystroke4xMs: number | null;
  exploreFilterP95At4xMs: number | null;
  lcpProductS: number | null;
}

export interface Measure {
  id: string;
  label: string;
  value: number | null;
  unit: string;
  /** The budget this run is held to (already scaled), null for a figure without one. */
  goal: number | null;
  /** value ≤ goal; null when there is no goal or no value. */
  pass: boolean | null;
}

export interface BenchReport {
  products: number;
  date: string;
  cpuIndex: number | null;
  loadAverage: number;
  floor: Floor | null;
  measures: Measure[];
}

/** The budgets at REFERENCE_INDEX: 5 s for an edit past 10,000 products, within 25% of it (6.25 s) up to 10,000. */
function editGoalS(products: number): number {
  return products > 10_000 ? 5 : 5 * 1.25;
}

/** The build's peak memory budget: 2.5 GB past 10,000 products, 1.5 GB up to 10,000. */
function buildGbGoal(products: number): number {
  return products > 10_000 ? 2.5 : 1.5;
}

/**
 * A time budget stated at REFERENCE_INDEX, for a machine of `cpuIndex` (unscaled without an index).
 * Rounded to three significant digits, so that the document reads as it is compared.
 */
export function scaledGoal(goalAtReference: number, cpuIndex: number | null): number {
  if (cpuIndex === null || !(cpuIndex > 0)) return goalAtReference;
  return Number(((goalAtReference * REFERENCE_INDEX) / cpuIndex).toPrecision(3));
}

function measure(id: string, label: string, value: number | null, unit: string, goal: number | null): Measure {
  const known = value !== null && Number.isFinite(value);
  return { id, label, value: known ? value : null, unit, goal, pass: known && goal !== null ? value <= goal : null };
}

/** The report of a run: its figures and, for each, the budget it is held to and whether it met it. */
export function benchReport(figures: BenchFigures): BenchReport {
  const { products, cpuIndex, floor, build, edit } = figures;
  const ratio = build && floor && floor.seconds > 0 ? Number((build.seconds / floor.seconds).toFixed(2)) : null;
  return {
    products,
    date: figures.date,
    cpuIndex,
    loadAverage: figures.loadAverage,
    floor,
    measures: [
      measure('build_s', 'Full build: time', build?.seconds ?? null, 's', floor ? Number((floor.seconds * FLOOR_RATIO_GOAL).toFixed(1)) : null),
      measure('build_gb', 'Full build: peak memory (sum of its processes)', build?.gb ?? null, 'GB', buildGbGoal(products)),
      measure('build_floor_ratio', "Full build's time over the floor's", ratio, '×', FLOOR_RATIO_GOAL),
      measure(
        'edit_to_page_s',
        'Product edit (name and price) → new price on its static page',
        edit?.seconds ?? null,
        's',
        scaledGoal(editGoalS(products), cpuIndex),
      ),
      measure('edit_files', 'Files the edit wrote', edit?.files ?? null, 'files', null),
      measure(
        'edit_all_files_s',
        'The same edit → every file written, the search files included',
        edit?.allFilesSeconds ?? null,
        's',
        scaledGoal(editGoalS(products), cpuIndex),
      ),
      measure(
        'edit_to_explore_s',
        'The same edit → /explore finds the product by its new name',
        edit?.exploreSeconds ?? null,
        's',
        scaledGoal(editGoalS(products), cpuIndex),
      ),
      measure('edit_slowest_answer_ms', "The server's slowest answer to another page during the edits", edit?.slowestMs ?? null, 'ms', null),
      measure(
        'warm_slowest_answer_ms',
        "The server's slowest answer to another page while it reads the served catalogue for its edits (after a build)",
        edit?.warmSlowestMs ?? null,
        'ms',
        null,
      ),
      {
        id: 'edit_search_finds',
        label: 'When the edit is done, the header search finds the product by its new name',
        value: edit?.searchFinds === undefined ? null : Number(edit.searchFinds),
        unit: 'found',
        goal: 1,
        pass: edit?.searchFinds ?? null,
      },
      measure(
        'edit_to_page_again_s',
        'A second edit (another product, its price only) → its static page',
        edit?.warmSeconds ?? null,
        's',
        scaledGoal(editGoalS(products), cpuIndex),
      ),
      measure('search_first_keystroke_ms', 'Header search: first keystroke → results', figures.searchFirstKeystrokeMs, 'ms', scaledGoal(100, cpuIndex)),
      measure('explore_filter_p95_ms', '/explore: filter change → results, p95', figures.exploreFilterP95Ms, 'ms', scaledGoal(100, cpuIndex)),
      measure(
        'search_first_keystroke_4x_ms',
        'Header search: first keystroke → results, CPU throttled 4×',
        figures.searchFirstKeystroke4xMs,
        'ms',
        scaledGoal(300, cpuIndex),
      ),
      measure(
        'explore_filter_p95_4x_ms',
        '/explore: filter change → results, p95, CPU throttled 4×',
        figures.exploreFilterP95At4xMs,
        'ms',
        scaledGoal(300, cpuIndex),
      ),
      measure('lcp_product_s', 'Product page LCP (Lighthouse mobile, median)', figures.lcpProductS, 's', scaledGoal(1, cpuIndex)),
    ],
  };
}

/** The document BENCH_JSON names, as written. */
export function benchJson(figures: BenchFigures): string {
  return `${JSON.stringify(benchReport(figures), null, 2)}\n`;
}

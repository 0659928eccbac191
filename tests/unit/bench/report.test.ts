/**
 * The site bench's JSON document (scripts/bench/report.ts): the fields and measure ids the issue
 * names, time budgets scaled from a benchmarkIndex of 1,800 to the run's, the build judged by its
 * ratio to the floor, and figures a run did not measure written as null with no verdict.
 */
import { describe, expect, it } from 'vitest';
import { benchJson, benchReport, REFERENCE_INDEX, scaledGoal, type BenchFigures } from '../../../scripts/bench/report.ts';

const figures: BenchFigures = {
  products: 100_000,
  date: '2026-11-29T17:00:00.000Z',
  cpuIndex: 2400,
  loadAverage: 0.6,
  floor: { pages: 100_000, seconds: 80, gb: 0.75 },
  build: { seconds: 150, gb: 2.2 },
  edit: {
    seconds: 4.1,
    files: 58,
    warmSeconds: 1.2,
    mode: 'fast',
    allFilesSeconds: 30,
    searchFinds: true,
    exploreSeconds: 3.5,
    slowestMs: 480,
    warmSlowestMs: 950,
  },
  searchFirstKeystrokeMs: 70,
  exploreFilterP95Ms: 90,
  searchFirstKeystroke4xMs: 200,
  exploreFilterP95At4xMs: 240,
  lcpProductS: 0.9,
};

const byId = (report: ReturnType<typeof benchReport>) => new Map(report.measures.map((m) => [m.id, m]));

describe('the bench report', () => {
  it('writes the run, the floor and every measure the issue names', () => {
    const parsed = JSON.parse(benchJson(figures)) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['products', 'date', 'cpuIndex', 'loadAverage', 'floor', 'measures']);
    expect(parsed).toMatchObject({ products: 100_000, date: figures.date, cpuIndex: 2400, loadAverage: 0.6, floor: figures.floor });
    const measures = parsed.measures as Array<Record<string, unknown>>;
    expect(measures.map((m) => m.id)).toEqual([
      'build_s',
      'build_gb',
      'build_floor_ratio',
      'edit_to_page_s',
      'edit_files',
      'edit_all_files_s',
      'edit_to_explore_s',
      'edit_slowest_answer_ms',
      'warm_slowest_answer_ms',
      'edit_search_finds',
      'edit_to_page_again_s',
      'search_first_keystroke_ms',
      'explore_filter_p95_ms',
      'search_first_keystroke_4x_ms',
      'explore_filter_p95_4x_ms',
      'lcp_product_s',
    ]);
    for (const m of measures) expect(Object.keys(m)).toEqual(['id', 'label', 'value', 'unit', 'goal', 'pass']);
  });

  it('scales time budgets by the measured index: a faster machine gets less time', () => {
    expect(scaledGoal(100, REFERENCE_INDEX)).toBe(100);
    expect(scaledGoal(100, 3600)).toBe(50);
    expect(scaledGoal(5, 900)).toBe(10);
    expect(scaledGoal(5, null)).toBe(5);
    const m = byId(benchReport(figures));
    // 5 s at 1,800 is 3.75 s at 2,400: 4.1 s misses it although it is under 5 s.
    expect(m.get('edit_to_page_s')).toMatchObject({ value: 4.1, unit: 's', goal: 3.75, pass: false });
    expect(m.get('edit_to_page_again_s')).toMatchObject({ value: 1.2, unit: 's', goal: 3.75, pass: true });
    expect(m.get('edit_all_files_s')).toMatchObject({ value: 30, unit: 's', goal: 3.75, pass: false });
    expect(m.get('edit_search_finds')).toMatchObject({ value: 1, unit: 'found', goal: 1, pass: true });
    expect(m.get('edit_to_explore_s')).toMatchObject({ value: 3.5, unit: 's', goal: 3.75, pass: true });
    expect(m.get('edit_slowest_answer_ms')).toMatchObject({ value: 480, unit: 'ms', goal: null, pass: null });
    expect(m.get('warm_slowest_answer_ms')).toMatchObject({ value: 950, unit: 'ms', goal: null, pass: null });
    expect(byId(benchReport({ ...figures, edit: { ...figures.edit!, searchFinds: false } })).get('edit_search_finds')).toMatchObject({ value: 0, pass: false });
    expect(byId(benchReport({ ...figures, edit: null })).get('edit_search_finds')).toMatchObject({ value: null, pass: null });
    expect(m.get('search_first_keystroke_ms')).toMatchObject({ value: 70, goal: 75, pass: true });
    expect(m.get('explore_filter_p95_ms')).toMatchObject({ value: 90, goal: 75, pass: false });
    // With the CPU throttled 4×: 300 ms at 1,800 is 225 ms at 2,400.
    expect(m.get('search_first_keystroke_4x_ms')).toMatchObject({ value: 200, goal: 225, pass: true });
    expect(m.get('explore_filter_p95_4x_ms')).toMatchObject({ value: 240, goal: 225, pass: false });
    expect(m.get('lcp_product_s')).toMatchObject({ value: 0.9, goal: 0.75, pass: false });
    const slow = byId(benchReport({ ...figures, cpuIndex: 1200 }));
    expect(slow.get('edit_to_page_s')).toMatchObject({ goal: 7.5, pass: true });
  });

  it('allows an edit 25% more time up to 10,000 products', () => {
    const m = byId(benchReport({ ...figures, products: 10_000, cpuIndex: REFERENCE_INDEX, edit: { seconds: 6, files: 40 } }));
    expect(m.get('edit_to_page_s')).toMatchObject({ goal: 6.25, pass: true });
    expect(m.get('edit_files')).toMatchObject({ value: 40, unit: 'files', goal: null, pass: null });
    expect(m.get('build_gb')).toMatchObject({ value: 2.2, goal: 1.5, pass: false });
  });

  it('judges the build by its ratio to the floor of the same run, not by seconds', () => {
    const m = byId(benchReport(figures));
    expect(m.get('build_floor_ratio')).toMatchObject({ value: 1.88, unit: '×', goal: 2, pass: true });
    expect(m.get('build_s')).toMatchObject({ value: 150, goal: 160, pass: true });
    expect(m.get('build_gb')).toMatchObject({ value: 2.2, goal: 2.5, pass: true });
    // The same build against a faster floor is over twice it, whatever the index.
    const fastFloor = byId(benchReport({ ...figures, cpuIndex: 900, floor: { pages: 100_000, seconds: 70, gb: 0.7 } }));
    expect(fastFloor.get('build_floor_ratio')).toMatchObject({ value: 2.14, pass: false });
    expect(fastFloor.get('build_s')).toMatchObject({ goal: 140, pass: false });
  });

  it('writes what a run did not measure as null, with no verdict', () => {
    const m = byId(
      benchReport({
        ...figures,
        cpuIndex: null,
        floor: null,
        build: null,
        edit: null,
        lcpProductS: Number.NaN,
        searchFirstKeystroke4xMs: null,
        exploreFilterP95At4xMs: null,
      }),
    );
    for (const id of [
      'build_s',
      'build_floor_ratio',
      'edit_to_page_s',
      'edit_files',
      'edit_to_explore_s',
      'edit_slowest_answer_ms',
      'warm_slowest_answer_ms',
      'lcp_product_s',
      'search_first_keystroke_4x_ms',
      'explore_filter_p95_4x_ms',
    ]) {
      expect(m.get(id)).toMatchObject({ value: null, pass: null });
    }
    expect(m.get('build_s')!.goal).toBeNull();
    // Without an index the budgets are the reference machine's.
    expect(m.get('search_first_keystroke_ms')).toMatchObject({ goal: 100, pass: true });
  });
});

/**
 * Long work written as a generator that yields between its pieces, so that a server can spread it
 * over turns of the event loop and keep answering while it works (src/server/rebuild/turns.ts);
 * a build, a script or a test runs the same steps at once (runSteps). A `yield` says only 'a pause
 * may go here'; the runner decides whether to take it.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to their end without pausing. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Items sorted at once before the merging starts. */
const RUN_LENGTH = 2048;

/** Comparisons made between two pauses while merging. */
const COMPARISONS_PER_STEP = 20_000;

/**
 * `list` sorted by `compare` in steps: runs of RUN_LENGTH sorted at once, then merged two by two,
 * a pause possible after every COMPARISONS_PER_STEP comparisons. Stable, so the same order as
 * `list.sort(compare)`. A sort of 100,000 names by the Spanish collator is a third of a second of
 * one core, too long for a server to stop answering.
 */
export function* sortInSteps<T>(list: readonly T[], compare: (a: T, b: T) => number): Steps<T[]> {
  let runs: T[][] = [];
  for (let start = 0; start < list.length; start += RUN_LENGTH) {
    runs.push(list.slice(start, start + RUN_LENGTH).sort(compare));
    yield;
  }
  let count = 0;
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let k = 0; k < runs.length; k += 2) {
      const a = runs[k]!;
      const b = runs[k + 1];
      if (!b) {
        merged.push(a);
        continue;
      }
      const out: T[] = [];
      let i = 0;
      let j = 0;
      while (i < a.length && j < b.length) {
        // Ties from the earlier run first: stable.
        out.push(compare(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!);
        if (++count % COMPARISONS_PER_STEP === 0) yield;
      }
      while (i < a.length) out.push(a[i++]!);
      while (j < b.length) out.push(b[j++]!);
      merged.push(out);
    }
    runs = merged;
  }
  return runs[0] ?? [];
}

/**
 * Long work written as a generator that yields between its pieces, so that the same code runs at
 * once (a build, a test: runSteps) or spread over turns of the event loop by a server that keeps
 * answering while it works (src/server/rebuild/turns.ts). A `yield` says only 'a pause may go
 * here'; the runner decides whether to take it.
 */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to their end without pausing, and answers what they return. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

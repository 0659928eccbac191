/** Work in steps (src/domain/steps.ts) run to its end without pausing, for tests. */
import type { Steps } from '~/domain/steps.ts';

export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

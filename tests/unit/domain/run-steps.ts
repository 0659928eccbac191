/** Work in steps (Steps, src/domain/header-search/shard-update.ts) run to its end without pausing, for tests. */
import type { Steps } from '~/domain/header-search/shard-update.ts';

export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Work in steps (Steps, src/domain/steps.ts) run to its end in a test: how many times it paused, and what it made. */
import type { Steps } from '~/domain/steps.ts';

export function stepped<T>(steps: Steps<T>): { pauses: number; value: T } {
  let pauses = 0;
  let step = steps.next();
  for (; !step.done; step = steps.next()) pauses += 1;
  return { pauses, value: step.value };
}

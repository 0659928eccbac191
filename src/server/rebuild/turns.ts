/**
 * Work the server does while it keeps answering shoppers (an edit it publishes, ./fast-edit.ts):
 * long steps run in slices, and between two slices the event loop reads and answers the requests
 * that came in. Work written as steps (Steps, src/domain/steps.ts) says where a pause may go; Turns
 * takes one when the slice is used up.
 */
import type { Steps } from '~/domain/steps.ts';

/**
 * One turn of the event loop. Two setImmediate hops, not one: from the I/O phase a single hop
 * runs before the loop reads new requests (a request sent in the middle of a block of work waited
 * 453 ms with one hop and 52 ms with two, two processes on this machine, 2026-12-01).
 */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** How long a slice of work runs before requests are let in, in ms. */
export const SLICE_MS = 25;

/** The slices of one piece of work. */
export class Turns {
  private readonly sliceMs: number;
  private since = performance.now();

  constructor(sliceMs = SLICE_MS) {
    this.sliceMs = sliceMs;
  }

  /** Lets the event loop answer requests when this slice has run `sliceMs`, then starts another. */
  async pause(): Promise<void> {
    if (performance.now() - this.since < this.sliceMs) return;
    await nextTurn();
    this.since = performance.now();
  }

  /** Runs `steps` to their end, pausing at their yields when a slice is used up. */
  async finish<T>(steps: Steps<T>): Promise<T> {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      await this.pause();
    }
  }
}

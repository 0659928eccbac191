/** Work in steps run at once: every step runs, in order, and the value returned is the answer. */
import { describe, expect, it } from 'vitest';
import { runSteps, type Steps } from '~/domain/steps.ts';

describe('runSteps', () => {
  it('runs every step in order and answers what the work returns', () => {
    const done: number[] = [];
    function* work(): Steps<string> {
      for (let i = 0; i < 5; i++) {
        done.push(i);
        yield;
      }
      return `hecho ${done.length}`;
    }
    expect(runSteps(work())).toBe('hecho 5');
    expect(done).toEqual([0, 1, 2, 3, 4]);
  });

  it('passes an error of a step on, and runs none after it', () => {
    const done: number[] = [];
    function* work(): Steps<void> {
      done.push(1);
      yield;
      throw new Error('paso 2 falló');
    }
    expect(() => runSteps(work())).toThrow('paso 2 falló');
    expect(done).toEqual([1]);
  });
});

import { describe, expect, it } from 'vitest';
import { runSteps, sortInSteps, type Steps } from '~/domain/steps.ts';
import { stepped } from '../../support/steps.ts';

describe('runSteps', () => {
  it('runs every step to the end and answers what the steps return', () => {
    const ran: number[] = [];
    function* work(): Steps<string> {
      for (let k = 0; k < 5; k++) {
        ran.push(k);
        yield;
      }
      return 'hecho';
    }
    expect(runSteps(work())).toBe('hecho');
    expect(ran).toEqual([0, 1, 2, 3, 4]);
  });

  it('passes on what the steps throw', () => {
    function* work(): Steps<number> {
      yield;
      throw new Error('falló');
    }
    expect(() => runSteps(work())).toThrow('falló');
  });
});

describe('sortInSteps', () => {
  it('gives the order Array.prototype.sort gives, ties in their first order, pausing along the way', () => {
    // A fixed pseudo-random sequence: many equal keys, so a merge that is not stable shows.
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const items = Array.from({ length: 10_000 }, (_, at) => ({ key: Math.floor(random() * 500), at }));
    const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
    const { pauses, value } = stepped(sortInSteps(items, byKey));
    expect(value).toEqual([...items].sort(byKey));
    expect(pauses).toBeGreaterThan(5);
    // The list given is left as it was.
    expect(items.map((item) => item.at)).toEqual(Array.from({ length: 10_000 }, (_, at) => at));
  });

  it('sorts an empty list and a list of one', () => {
    expect(runSteps(sortInSteps([], (a: number, b: number) => a - b))).toEqual([]);
    expect(runSteps(sortInSteps([3], (a: number, b: number) => a - b))).toEqual([3]);
  });
});

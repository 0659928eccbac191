/** How long each named step of a production check took, in milliseconds, for its printed timings. */
export function stopwatch(): { timings: Record<string, number>; timed: <T>(name: string, step: () => Promise<T>) => Promise<T> } {
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, step: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await step();
    } finally {
      timings[name] = Math.round(performance.now() - started);
    }
  };
  return { timings, timed };
}

/**
 * Shoppers who arrive when they like, not all at once. autocannon's connections with a rate
 * (`connectionRate`) all open together, and each sends its next request on its own one-second
 * timer started as it opens: 200 shoppers at one request a second arrive as 200 requests in the
 * same instant, every second, and the last of them waits for the 199 before it. Real shoppers
 * click at moments of their own. Here the connections are split into groups, each an autocannon
 * instance of its own, started evenly across one interval of the rate (the g-th of G groups
 * 1000 / rate × g / G ms after the first), so the requests are spread over each second as
 * independent shoppers' are. `groups: 1` is autocannon's own way (everyone in step), the worst
 * case of a crowd that clicks together.
 */
import autocannon from 'autocannon';

/** How many groups the connections are spread over by default (at most one per connection). */
export const ARRIVAL_GROUPS = 50;

/** What the instances did, summed. */
export interface ArrivalTotals {
  /** Answers received (autocannon's requests.total), summed. */
  requests: number;
  /** Answers a second, summed over the instances. */
  rps: number;
  errors: number;
  non2xx: number;
  timeouts: number;
  /** How many instances (groups) ran. */
  groups: number;
}

/** The sizes of `groups` groups of `connections` connections, as even as can be, none empty. */
export function groupSizes(connections: number, groups: number): number[] {
  const count = Math.max(1, Math.min(Math.floor(groups) || 1, connections));
  return Array.from({ length: count }, (_, g) => Math.floor((connections * (g + 1)) / count) - Math.floor((connections * g) / count));
}

/** When group g of `groups` starts, in ms after the first, for requests at `rate` a second per connection. */
export function groupDelay(g: number, groups: number, rate: number): number {
  return (1000 / rate) * (g / groups);
}

/**
 * Runs autocannon with `options.connections` connections at `options.connectionRate` requests a
 * second each, spread over `groups` instances started evenly across one interval of the rate.
 * `onInstance` gets each instance as it starts (to listen to its 'response' events). Resolves
 * when every instance is done, with their totals; rejects with the first error.
 */
export function spreadAutocannon(
  options: autocannon.Options & { connections: number; connectionRate: number },
  onInstance: (instance: autocannon.Instance) => void,
  groups: number = ARRIVAL_GROUPS,
): Promise<ArrivalTotals> {
  const sizes = groupSizes(options.connections, groups);
  const runs = sizes.map(
    (connections, g) =>
      new Promise<autocannon.Result>((resolve, reject) => {
        setTimeout(
          () => {
            const instance = autocannon({ ...options, connections }, (error, result) => (error ? reject(error) : resolve(result)));
            onInstance(instance);
          },
          groupDelay(g, sizes.length, options.connectionRate),
        );
      }),
  );
  return Promise.all(runs).then((results) => ({
    requests: results.reduce((sum, r) => sum + r.requests.total, 0),
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    timeouts: results.reduce((sum, r) => sum + r.timeouts, 0),
    groups: results.length,
  }));
}

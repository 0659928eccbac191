/**
 * Long work written as a generator that yields between its pieces, so that a server can spread it
 * over turns of the event loop and keep answering while it works (src/server/rebuild/turns.ts);
 * a test runs the same steps at once. A `yield` says only 'a pause may go here'; the runner
 * decides whether to take it.
 */
export type Steps<T> = Generator<void, T, void>;

/**
 * Percentages of things that are not money (a progress bar, a password's strength, a discount's
 * badge): the one place the shop multiplies by 100 for a ratio, so code that does so anywhere else
 * is converting pesos and centavos by hand (tests/unit/lint/money-boundary.test.ts).
 */

/** `part` as a percentage of `whole`, unrounded (1 of 4 → 25); the caller rounds as its display needs. */
export function percent(part: number, whole: number): number {
  return (part * 100) / whole;
}

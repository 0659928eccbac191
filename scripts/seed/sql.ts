/** SQL literal helpers for the generated seed: every value goes through one of these. */

/** A quoted SQL text literal, or null. */
export function text(value: string | null | undefined): string {
  if (value === null || value === undefined) return 'null';
  return `'${value.replace(/'/g, "''")}'`;
}

/** A numeric(12,2) literal from pesos. */
export function money(pesos: number): string {
  if (!Number.isFinite(pesos)) throw new RangeError(`Monto no válido: ${pesos}`);
  return pesos.toFixed(2);
}

/** An integer literal. */
export function int(value: number): string {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Entero no válido: ${value}`);
  return String(value);
}

/** A boolean literal. */
export function bool(value: boolean): string {
  return value ? 'true' : 'false';
}

/** A text[] literal. */
export function textArray(values: readonly string[]): string {
  return values.length === 0 ? `'{}'::text[]` : `array[${values.map(text).join(', ')}]::text[]`;
}

/** A jsonb literal. */
export function jsonb(value: unknown): string {
  return `${text(JSON.stringify(value))}::jsonb`;
}

/** A date literal or null. */
export function date(value: string | null | undefined): string {
  return value ? `${text(value)}::date` : 'null';
}

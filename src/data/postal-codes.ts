/**
 * Mexican postal-code lookup for the address form: the state, municipality (alcaldía in Mexico
 * City), city and settlements (colonias) of one 5-digit code, answered by the database function
 * postal_code_lookup from the SEPOMEX catalogue (never the whole catalogue in the browser).
 *
 * Answers are kept in memory per code for the life of the page, so a shopper who retypes the same
 * code (or goes back to the form) asks once; a failure is not kept, so the next try asks again.
 */
import { getSupabase } from './supabase.ts';

/** One settlement (asentamiento) of a postal code: its name and its type ('Colonia', 'Barrio', …). */
interface PostalSettlement {
  name: string;
  type: string;
}

/** What the catalogue knows about one postal code. */
export type PostalCodeInfo = {
  code: string;
  state: string;
  municipality: string;
  city: string | null;
  settlements: PostalSettlement[];
};

/** Five digits, leading zeros kept: the only shape the catalogue has. */
const POSTAL_CODE = /^[0-9]{5}$/;

/** Answers (or questions in flight) by code; at most CACHE_LIMIT codes, the oldest dropped first. */
const cache = new Map<string, Promise<PostalCodeInfo | null>>();
const CACHE_LIMIT = 200;

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

/** The function's answer checked field by field; anything else is a server fault. */
function parseAnswer(code: string, data: unknown): PostalCodeInfo | null {
  if (data === null || data === undefined) return null;
  if (typeof data !== 'object' || Array.isArray(data)) throw new Error('postal_code_lookup: unexpected answer');
  const answer = data as Record<string, unknown>;
  if (answer.code !== code || !isText(answer.state) || !isText(answer.municipality)) {
    throw new Error('postal_code_lookup: unexpected answer');
  }
  if (answer.city !== null && answer.city !== undefined && !isText(answer.city)) throw new Error('postal_code_lookup: unexpected answer');
  if (!Array.isArray(answer.settlements)) throw new Error('postal_code_lookup: unexpected answer');
  const settlements: PostalSettlement[] = [];
  for (const item of answer.settlements as unknown[]) {
    const settlement = item as Record<string, unknown> | null;
    if (!settlement || !isText(settlement.name) || !isText(settlement.type)) throw new Error('postal_code_lookup: unexpected answer');
    settlements.push({ name: settlement.name, type: settlement.type });
  }
  return { code, state: answer.state, municipality: answer.municipality, city: isText(answer.city) ? answer.city : null, settlements };
}

async function ask(code: string): Promise<PostalCodeInfo | null> {
  const { data, error } = await getSupabase().rpc('postal_code_lookup', { p_code: code });
  if (error) throw new Error(`postal_code_lookup: ${error.message}`, { cause: error });
  return parseAnswer(code, data);
}

/**
 * The catalogue's data for a postal code (surrounding spaces ignored), or null when the code is not
 * 5 digits or the catalogue does not know it (the shopper then types the address by hand). Throws
 * when the database cannot be reached or answers with an error.
 */
export function lookupPostalCode(code: string): Promise<PostalCodeInfo | null> {
  const key = code.trim();
  if (!POSTAL_CODE.test(key)) return Promise.resolve(null);
  const known = cache.get(key);
  if (known) return known;
  const pending = ask(key);
  cache.set(key, pending);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  // A failure is forgotten so that the next keystroke or retry asks the database again.
  pending.catch(() => {
    if (cache.get(key) === pending) cache.delete(key);
  });
  return pending;
}

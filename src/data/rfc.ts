/**
 * A shopper's RFC checked by validate-rfc (SAT's format, the check digit, persona física or moral)
 * and judged by the shop's rules (src/domain/sat-catalogs.ts: the date to the day, the generic RFCs
 * refused). The database checks it again (rfc_is_valid).
 */
import validateRfc from 'validate-rfc';
import { normaliseRfc, rfcVerdict } from '~/domain/sat-catalogs.ts';

/** The RFC's verdict: the RFC as SAT writes it and its kind of person, or the message to show. */
export function checkRfc(input: string): ReturnType<typeof rfcVerdict> {
  return rfcVerdict(input, validateRfc(normaliseRfc(input)));
}

/**
 * Passwords as GoTrue keeps them: bcrypt at cost 10 (`$2b$`; `$2a$` and `$2y$` hashes from
 * elsewhere verify too). Native code (@node-rs/bcrypt) on libuv's thread pool: a hash or a check
 * is about 50 ms of CPU, which in JavaScript would hold up every other request of the stack's one
 * thread while it ran.
 */
import { hash, verify } from '@node-rs/bcrypt';

export const BCRYPT_COST = 10;

/** A new bcrypt hash of `password` with a random salt. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { cost: BCRYPT_COST });
}

/** Whether `password` matches the stored hash (false for a malformed hash). */
export function verifyPassword(password: string, encodedHash: string): Promise<boolean> {
  return verify(password, encodedHash);
}

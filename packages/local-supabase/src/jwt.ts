/** HS256 JWTs for the local stack, signed and verified with jose. */
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';

/** Signs `claims` with HS256. `iat`/`exp` are taken from claims when present. */
export async function signJwt(claims: JWTPayload, secret: string): Promise<string> {
  const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
  // A token this process signed is valid by construction: remembered with the claims a verification would return.
  remember(cacheKey(token, secret), JSON.parse(JSON.stringify(claims)) as JWTPayload);
  return token;
}

/** How many verified tokens are remembered (each shopper's session sends the same one many times). */
const VERIFIED_LIMIT = 10_000;

/** Tokens already verified, by secret and token, with their claims; the oldest go first. */
const verified = new Map<string, JWTPayload>();

function cacheKey(token: string, secret: string): string {
  return `${secret.length}:${secret}:${token}`;
}

function remember(key: string, claims: JWTPayload): void {
  if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value!);
  verified.set(key, Object.freeze(claims));
}

/** True while `payload`'s times allow it now (exp and nbf, as jose checks them, no tolerance). */
function inTime(payload: JWTPayload, now: number): boolean {
  if (typeof payload.exp === 'number' && payload.exp <= now) return false;
  if (typeof payload.nbf === 'number' && payload.nbf > now) return false;
  return true;
}

/**
 * Verifies an HS256 token; returns its claims, or null when invalid or expired. A token verified
 * once, or signed by this process, is remembered with its claims (HMAC verification through
 * WebCrypto was a fifth of the stack's CPU in a rush of a thousand shoppers): a remembered token is
 * only checked for its times again, since its signature and claims cannot change. Each call gets
 * its own copy of the claims.
 */
export async function verifyJwt(token: string, secret: string): Promise<JWTPayload | null> {
  const key = cacheKey(token, secret);
  const now = Math.floor(Date.now() / 1000);
  const known = verified.get(key);
  if (known) {
    if (inTime(known, now)) return { ...known };
    verified.delete(key);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
    });
    remember(key, { ...payload });
    return payload;
  } catch {
    return null;
  }
}

/** Fixed issue/expiry times so the local keys are the same string on every machine. */
const KEY_IAT = 1767225600; // 2026-01-01T00:00:00Z
const KEY_EXP = 2082758400; // 2036-01-01T00:00:00Z

/** The deterministic anon and service-role keys for a secret (HS256 signing is deterministic). */
export async function apiKeys(secret: string): Promise<{ anonKey: string; serviceRoleKey: string }> {
  const anonKey = await signJwt({ iss: 'supabase-local', role: 'anon', iat: KEY_IAT, exp: KEY_EXP }, secret);
  const serviceRoleKey = await signJwt({ iss: 'supabase-local', role: 'service_role', iat: KEY_IAT, exp: KEY_EXP }, secret);
  return { anonKey, serviceRoleKey };
}

/** HS256 JWTs for the local stack, signed and verified with jose. */
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';

/** Signs `claims` with HS256. `iat`/`exp` are taken from claims when present. */
export async function signJwt(claims: JWTPayload, secret: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
}

/** Verifies an HS256 token; returns its claims, or null when invalid or expired. */
export async function verifyJwt(token: string, secret: string): Promise<JWTPayload | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
    });
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

/**
 * Configuration of the local stack. The JWT secret and the two keys below are the
 * fixed, public, local-only values (the same idea as Supabase's CLI defaults): they
 * must never be used for a deployment reachable from outside this machine.
 */
import path from 'node:path';

/** Local-only HS256 secret. Documented in README and .env.example. */
export const LOCAL_JWT_SECRET = 'tienda-local-jwt-secret-solo-para-desarrollo-0001';


export interface StackConfig {
  host: string;
  port: number;
  /** Public base URL, e.g. http://127.0.0.1:54321 */
  url: string;
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
  /** Folder that holds the PGlite data dir, storage objects and the mailbox. */
  dataDir: string;
  /** When set, use this Postgres server instead of PGlite. */
  databaseUrl?: string;
  /** E-mail confirmation off when true (LOCAL_SUPABASE_AUTOCONFIRM=true). */
  autoconfirm: boolean;
  /** Site the e-mails link back to (the shop), e.g. http://localhost:4321 */
  siteUrl: string;
  /** Project root (where supabase/ lives). */
  rootDir: string;
  /** Browser origins that get CORS answers (the shop's own); see cors.ts. */
  corsOrigins: string[];
  /** Most rows one REST read returns (PostgREST's db-max-rows; LOCAL_SUPABASE_MAX_ROWS). */
  maxRows: number;
}

export function defaultDataDir(rootDir: string): string {
  return path.join(rootDir, '.data');
}

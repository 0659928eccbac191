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
  /** Where the project's SQL files and storage seed are. */
  project: ProjectLayout;
  /** The name e-mails, the mailbox page and the Google stand-in show. */
  brand: string;
  /** The texts of the e-mails the auth server sends. */
  emails: EmailTemplates;
  /** Accounts the banner lists when the database holds them (the project's local-only seed). */
  demoAccounts: DemoAccount[];
  /** Browser origins that get CORS answers (the shop's own); see cors.ts. */
  corsOrigins: string[];
  /** Most rows one REST read returns (PostgREST's db-max-rows; LOCAL_SUPABASE_MAX_ROWS). */
  maxRows: number;
}

/** One e-mail: what the mailbox stores. */
export interface Email {
  subject: string;
  html: string;
  text: string;
}

/**
 * The e-mails the auth server sends; each gets the link to put in it and the brand. The defaults
 * are `defaultEmails` in auth/emails.ts.
 */
export interface EmailTemplates {
  /** Confirms a new account (sign-up, resend). */
  confirmation(link: string, brand: string): Email;
  /** Carries the link to set a new password. */
  recovery(link: string, brand: string): Email;
  /** Confirms a change of address; sent to the new address. */
  emailChange(link: string, newEmail: string, brand: string): Email;
}

/** The project's files the stack reads (the Supabase CLI's layout by default). */
export interface ProjectLayout {
  /** Timestamped migrations, applied in name order. Default `<root>/supabase/migrations`. */
  migrationsDir: string;
  /** Seed applied after the migrations. Default `<root>/supabase/seed.sql`. */
  seedFile: string;
  /**
   * Local-only seeds (e.g. demo accounts with public passwords), applied after the seed file and
   * never meant for a hosted project. Default `<root>/supabase/local/seed`.
   */
  localSeedDir: string;
  /** One folder per public bucket, copied into the data folder. Default `<root>/supabase/storage`. */
  storageDir: string;
}

/** The default layout under a project root, completed by `overrides`. */
export function projectLayout(rootDir: string, overrides: Partial<ProjectLayout> = {}): ProjectLayout {
  const base = path.join(rootDir, 'supabase');
  return {
    migrationsDir: overrides.migrationsDir ?? path.join(base, 'migrations'),
    seedFile: overrides.seedFile ?? path.join(base, 'seed.sql'),
    localSeedDir: overrides.localSeedDir ?? path.join(base, 'local', 'seed'),
    storageDir: overrides.storageDir ?? path.join(base, 'storage'),
  };
}

/** A demo account of the project's local-only seed, shown in the banner. */
export interface DemoAccount {
  email: string;
  password: string;
  role: string;
}

/** The brand the stack shows when the project names none. */
export const DEFAULT_BRAND = 'Local Supabase';

export function defaultDataDir(rootDir: string): string {
  return path.join(rootDir, '.data');
}

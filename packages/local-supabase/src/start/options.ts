/** The options `startStack` takes and what it returns. */
import type { DemoAccount, EmailTemplates, ProjectLayout, StackConfig } from '../config.ts';
import type { StackContext } from '../types.ts';

export interface StartOptions {
  /** 0 picks a free port. Default: LOCAL_SUPABASE_PORT or 54321. */
  port?: number;
  /** Default: LOCAL_SUPABASE_HOST or 127.0.0.1. */
  host?: string;
  /** Folder for db/, storage/ and the mailbox. Default: LOCAL_SUPABASE_DATA_DIR or .data/. */
  dataDir?: string;
  /** Keep the database in memory (tests); storage still lives in dataDir. */
  memory?: boolean;
  /** Use this Postgres server instead of PGlite. Default: DATABASE_URL. */
  databaseUrl?: string;
  /** Connections to that server (PostgREST's db-pool). Default: LOCAL_SUPABASE_DB_POOL or 10. */
  dbPool?: number;
  /** Wipe dataDir before starting. */
  reset?: boolean;
  /** Apply supabase/ migrations and seed through migrate.ts (default true). */
  migrate?: boolean;
  /** Extra SQL run as the owner after migrations (tests use it for their own tables). */
  setupSql?: string;
  jwtSecret?: string;
  autoconfirm?: boolean;
  siteUrl?: string;
  /** Browser origins allowed by CORS. Default: the site URL, the `npm start` origin, LOCAL_SUPABASE_CORS_ORIGINS. */
  corsOrigins?: string[];
  /** Most rows one REST read returns. Default: LOCAL_SUPABASE_MAX_ROWS or 1000. */
  maxRows?: number;
  /** The project (where supabase/ lives). Default: the current directory. */
  rootDir?: string;
  /** Where the project's SQL files and storage seed are; each defaults under `rootDir` (see ProjectLayout). */
  project?: Partial<ProjectLayout>;
  /** The name e-mails, the mailbox page and the Google stand-in show. Default: 'Local Supabase'. */
  brand?: string;
  /** The texts of the auth e-mails; each one left out keeps the neutral English default. */
  emails?: Partial<EmailTemplates>;
  /** Accounts of the project's local-only seed the banner lists when the database holds them. */
  demoAccounts?: DemoAccount[];
  /** Where fresh-database templates are cached; null disables them. Default node_modules/.cache/local-supabase. */
  templateDir?: string | null;
  /** HTTP timeouts (defaults 30 s for a request, 10 s for its headers). */
  requestTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** Print the banner (URL, keys, demo accounts). */
  verbose?: boolean;
}

export interface RunningStack {
  url: string;
  config: StackConfig;
  ctx: StackContext;
  /** Timings in milliseconds, for the start-up benchmark. */
  timings: { total: number; database: number; migrations: number; schema: number; storage: number; fresh: boolean; fromTemplate: boolean };
  stop(): Promise<void>;
}

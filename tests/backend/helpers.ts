/** Starts a whole local stack in-process for backend tests. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack, type RunningStack, type StartOptions } from '../../scripts/local-supabase/index.ts';

export interface TestStack {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  /** Temp folder holding storage and mailbox (and the database unless `memory`). */
  dataDir: string;
  stack: RunningStack;
  /** Stops the stack and deletes its temp folder. */
  stop(): Promise<void>;
}

/**
 * Starts a stack on a free port with a fresh database (in memory by default) and a
 * temp data folder, with the project's migrations and seed applied.
 * Pass `setupSql` for extra tables, `migrate: false` for a bare database.
 */
export async function startTestStack(options: Omit<StartOptions, 'port' | 'host'> = {}): Promise<TestStack> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-stack-'));
  const ownsDir = options.dataDir === undefined;
  const stack = await startStack({
    memory: true,
    autoconfirm: true,
    ...options,
    dataDir,
    port: 0,
    host: '127.0.0.1',
    databaseUrl: options.databaseUrl ?? '',
    verbose: false,
  });
  return {
    url: stack.url,
    anonKey: stack.config.anonKey,
    serviceRoleKey: stack.config.serviceRoleKey,
    jwtSecret: stack.config.jwtSecret,
    dataDir,
    stack,
    async stop() {
      await stack.stop();
      if (ownsDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

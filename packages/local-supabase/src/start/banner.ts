/** The command line's banner: the URLs, the keys and the demo accounts the database holds. */
import path from 'node:path';
import { LOCAL_JWT_SECRET, type DemoAccount, type StackConfig } from '../config.ts';
import type { Db } from '../db.ts';

/** The demo accounts this database actually holds (the local-only seed may have been skipped). */
export async function demoAccountsPresent(db: Db, accounts: DemoAccount[]): Promise<DemoAccount[]> {
  if (accounts.length === 0) return [];
  try {
    const r = await db.admin((tx) => tx.query<{ email: string }>('select email from auth.users where email = any($1::text[])', [accounts.map((a) => a.email)]));
    const found = new Set(r.rows.map((row) => row.email));
    return accounts.filter((a) => found.has(a.email));
  } catch {
    return [];
  }
}

export function printBanner(config: StackConfig, ms: number, fresh: boolean, demo: DemoAccount[]): void {
  const lines = [
    '',
    `Supabase local listo en ${config.url}  (${Math.round(ms)} ms${fresh ? ', base de datos nueva' : ''})`,
    '',
    `  API URL           ${config.url}`,
    `  REST              ${config.url}/rest/v1`,
    `  Auth              ${config.url}/auth/v1`,
    `  Storage           ${config.url}/storage/v1`,
    `  Realtime          ${config.url.replace(/^http/, 'ws')}/realtime/v1/websocket`,
    `  Buzón de correo   ${config.url}/mailbox`,
    `  Datos             ${config.databaseUrl ? 'Postgres (DATABASE_URL)' : config.dataDir}`,
    '',
    `  anon key          ${config.anonKey}`,
    `  service_role key  ${config.serviceRoleKey}`,
    `  JWT secret        ${config.jwtSecret === LOCAL_JWT_SECRET ? config.jwtSecret : '(SUPABASE_JWT_SECRET)'}`,
    '',
    ...(demo.length > 0
      ? [
          `  Cuentas de demostración (solo en este equipo, ${path.relative(config.rootDir, config.project.localSeedDir) || '.'}/):`,
          ...demo.map((a) => `    ${a.email.padEnd(18)} ${a.password.padEnd(12)} (${a.role})`),
        ]
      : ['  Sin cuentas de demostración en esta base de datos.']),
    '',
  ];
  console.log(lines.join('\n'));
}

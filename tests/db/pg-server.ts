/**
 * A throwaway PostgreSQL server for tests that need real concurrency (PGlite has one connection).
 *
 * initdb refuses to run as root. When the tests run as root, the server runs as the `postgres`
 * OS user (Debian's PostgreSQL packages create it) through `runuser`, in a temporary directory
 * owned by that user. Without initdb, or as root without a `postgres` user, `pgServerSupport()`
 * says why and the suite skips.
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../scripts/support/net.mjs';

const run = promisify(execFile);

/** A new, connected client of `server`'s `postgres` database. */
export async function connectTo(server: PgServer): Promise<pg.Client> {
  const client = new pg.Client({ host: server.host, port: server.port, user: server.user, database: 'postgres' });
  await client.connect();
  return client;
}

/** A running server; `stop()` shuts it down and deletes its files. */
export interface PgServer {
  host: string;
  port: number;
  user: string;
  /** A connection string through the server's Unix socket: a process on the same machine skips the loopback TCP stack. */
  socketUrl: string;
  stop(): Promise<void>;
}

interface Support {
  ok: boolean;
  reason: string;
  binDir?: string;
  /** OS user to run the server as when we are root. */
  runAs?: { name: string; uid: number; gid: number };
}

function findBinDir(): string | undefined {
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const onPath = which.status === 0 ? which.stdout.trim() : '';
  if (onPath) return path.dirname(fs.realpathSync(onPath));
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const versions = fs.readdirSync(base).sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const dir = path.join(base, version, 'bin');
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  }
  return undefined;
}

function osUser(name: string): { name: string; uid: number; gid: number } | undefined {
  const uid = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Whether a throwaway server can be started here, and if not, why. */
export function pgServerSupport(): Support {
  const binDir = findBinDir();
  if (!binDir) return { ok: false, reason: 'initdb no está en el PATH ni en /usr/lib/postgresql/*/bin' };
  if (process.getuid?.() !== 0) return { ok: true, reason: '', binDir };
  const runAs = osUser('postgres');
  const runuser = spawnSync('sh', ['-c', 'command -v runuser'], { encoding: 'utf8' });
  if (!runAs || runuser.status !== 0) {
    return { ok: false, reason: 'se ejecuta como root y no hay usuario "postgres" o runuser para iniciar PostgreSQL', binDir };
  }
  return { ok: true, reason: '', binDir, runAs };
}

/** Starts a fresh cluster on a free port of 127.0.0.1, trust auth, superuser `postgres`. */
export async function startPgServer(): Promise<PgServer> {
  const support = pgServerSupport();
  if (!support.ok || !support.binDir) throw new Error(support.reason);
  const bin = (name: string) => path.join(support.binDir!, name);
  const exec = (file: string, args: string[]) => (support.runAs ? run('runuser', ['-u', support.runAs.name, '--', file, ...args]) : run(file, args));

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tienda-pg-'));
  if (support.runAs) fs.chownSync(dir, support.runAs.uid, support.runAs.gid);
  const dataDir = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const port = await freePort();

  await exec(bin('initdb'), ['-D', dataDir, '--auth=trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  // Durability is pointless for a throwaway cluster; these keep the suite fast on slow disks.
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=60',
  ].join(' ');
  try {
    await exec(bin('pg_ctl'), ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
  } catch (err) {
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL no arrancó: ${(err as Error).message}\n${log}`, { cause: err });
  }

  return {
    host: '127.0.0.1',
    port,
    user: 'postgres',
    socketUrl: `postgres://postgres@localhost:${port}/postgres?host=${encodeURIComponent(dir)}`,
    async stop() {
      try {
        await exec(bin('pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

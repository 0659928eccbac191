/**
 * How long `npm run sepomex:import` takes on a catalogue the size of Correos de México's whole
 * download (about 157,000 settlements), on a throwaway PostgreSQL 15 server of this machine with
 * the shop's migrations. The full file cannot be downloaded here, so one is made in its format
 * from the repository's sample: its rows again and again, each copy under other postal codes and
 * settlement keys (about five settlements per code, as the real file has). The file is imported
 * twice (the second replaces the first, as a monthly update does) and each import is timed.
 *
 *   npx tsx scripts/bench/sepomex.ts              157,000 settlements
 *   npx tsx scripts/bench/sepomex.ts 50000        another size
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyMigrations } from 'local-supabase/migrate';
import { connectTo, startPgServer } from '../../tests/db/pg-server.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const SAMPLE = path.join(ROOT, 'supabase/local/seed/sepomex-sample.txt');
const ROWS = Number(process.argv[2] || 157_000);
/** Settlements per postal code in the made-up file. */
const PER_CODE = 5;

/** The made-up catalogue: the sample's notice and header, then `rows` settlements. */
function catalogue(rows: number): Buffer {
  const lines = fs.readFileSync(SAMPLE, 'latin1').split('\r\n');
  const [notice, header, ...data] = lines;
  const settlements = data.filter((line) => line.includes('|'));
  const out = [notice, header];
  for (let i = 0; i < rows; i += 1) {
    const fields = settlements[i % settlements.length]!.split('|');
    const code = String(1000 + (Math.floor(i / PER_CODE) % 98_000)).padStart(5, '0');
    fields[0] = code;
    fields[6] = code;
    fields[12] = String(i % 10_000).padStart(4, '0');
    out.push(fields.join('|'));
  }
  return Buffer.from(`${out.join('\r\n')}\r\n`, 'latin1');
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sepomex-bench-'));
  const file = path.join(work, 'CPdescarga.txt');
  fs.writeFileSync(file, catalogue(ROWS));
  const server = await startPgServer();
  try {
    const admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT, { seed: false });
    const url = `postgresql://${server.user}@${server.host}:${server.port}/postgres`;
    console.log(
      `Fecha: ${new Date().toISOString()}; carga ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; ${os.cpus().length} CPU (${os.cpus()[0]?.model ?? '?'})`,
    );
    console.log(`Archivo: ${ROWS} asentamientos, ${(fs.statSync(file).size / 1024 ** 2).toFixed(1)} MB`);
    for (const run of ['primera carga', 'segunda carga (reemplaza)']) {
      const started = process.hrtime.bigint();
      const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/sepomex-import.ts'), file, '--database-url', url], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (child.status !== 0) throw new Error(`${run}: ${child.stderr || child.stdout}`);
      const { rows } = await admin.query<{ n: string; codes: string }>(
        'select count(*) as n, count(distinct postal_code) as codes from public.postal_settlements',
      );
      console.log(
        `${run}: ${seconds.toFixed(1)} s (proceso completo); en la tabla ${rows[0]!.n} asentamientos, ${rows[0]!.codes} códigos; ${child.stdout.trim()}`,
      );
    }
    await admin.end();
  } finally {
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

/** `npm run bench`: the project's benchmarks, printed as Markdown tables. */
import os from 'node:os';
import { markdownTable, runBackendBench } from 'local-supabase/bench';
import { printSiteBench } from './bench/site.ts';

async function main(): Promise<void> {
  const gib = (n: number) => (n / 1024 ** 3).toFixed(1);
  console.log(`Fecha: ${new Date().toISOString()}`);
  console.log(
    `Máquina: ${os.cpus().length} CPU (${os.cpus()[0]?.model ?? '?'}), ${gib(os.totalmem())} GiB RAM (${gib(os.freemem())} libres), Node ${process.version}, carga ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('');
  console.log('### Local Supabase stack (PGlite)');
  console.log('');
  console.log(markdownTable(await runBackendBench()));
  await printSiteBench();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

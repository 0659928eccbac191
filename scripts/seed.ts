/**
 * Writes the demo data: the catalogue in supabase/seed.sql, the local-only demo accounts in
 * supabase/local/seed/demo_accounts.sql and the catalogue images under supabase/storage (the
 * singles' and slabs' photos, scripts/seed/photos.ts, are made there once and not committed).
 *
 *   npm run seed                                   demo catalogue and accounts (committed files)
 *   npm run seed -- --products 10000 --out x.sql   a large catalogue for benchmarks (catalogue SQL
 *                                                  only; the committed demo accounts fit it, since
 *                                                  a large catalogue starts with the demo products)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildSeed } from './seed/build.ts';
import { ensureDemoPhotos } from './seed/photos.ts';
import { DEFAULT_SEED_PATH, DEMO_SEED_PATH, STORAGE_SEED_DIR } from './seed/constants.ts';

export * from './seed/constants.ts';

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Parsed command line of the seed script. */
export interface SeedArgs {
  productCount?: number;
  out: string;
}

/** Parses `--products N` and `--out FILE`; throws a Spanish message on bad input. */
export function parseSeedArgs(argv: string[]): SeedArgs {
  const { values } = parseArgs({
    args: argv,
    options: { products: { type: 'string' }, out: { type: 'string' } },
    strict: true,
  });
  let productCount: number | undefined;
  if (values.products !== undefined) {
    productCount = Number(values.products);
    if (!Number.isInteger(productCount) || productCount < 1 || productCount > 1_000_000) {
      throw new Error(`--products debe ser un entero entre 1 y 1000000 (recibido: ${values.products}).`);
    }
  }
  return { productCount, out: path.resolve(ROOT_DIR, values.out ?? DEFAULT_SEED_PATH) };
}

function writeImages(images: ReturnType<typeof buildSeed>['images']): void {
  const storageDir = path.join(ROOT_DIR, STORAGE_SEED_DIR);
  // Start from empty bucket folders so images of removed products do not linger.
  for (const bucket of ['products', 'expansions', 'product-types']) {
    fs.rmSync(path.join(storageDir, bucket), { recursive: true, force: true });
  }
  for (const image of images) {
    const file = path.join(storageDir, image.path);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, image.content);
  }
}

async function main(): Promise<void> {
  let args: SeedArgs;
  try {
    args = parseSeedArgs(process.argv.slice(2));
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 2;
    return;
  }
  const seed = buildSeed({ productCount: args.productCount });
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  fs.writeFileSync(args.out, seed.sql);
  const isDefault = args.out === path.resolve(ROOT_DIR, DEFAULT_SEED_PATH);
  // Images and demo accounts belong to the committed demo seed; a benchmark catalogue reuses them.
  if (isDefault) {
    writeImages(seed.images);
    const demoFile = path.join(ROOT_DIR, DEMO_SEED_PATH);
    fs.mkdirSync(path.dirname(demoFile), { recursive: true });
    fs.writeFileSync(demoFile, seed.demoSql);
  }
  console.log(
    `Semilla escrita en ${path.relative(ROOT_DIR, args.out)}: ${seed.products.length} productos` +
      (isDefault
        ? `; cuentas de demostración con ${seed.orders.length} pedidos en ${DEMO_SEED_PATH}; ${seed.images.length} imágenes en ${STORAGE_SEED_DIR}.`
        : ' (sin cuentas ni imágenes nuevas).'),
  );
  // The photos of the singles and slabs (supabase/local/seed/demo_photos.sql), made once, not committed.
  const photos = await ensureDemoPhotos(path.join(ROOT_DIR, STORAGE_SEED_DIR));
  if (photos > 0) console.log(`${photos} fotos de demostración con sus copias en ${STORAGE_SEED_DIR}/products.`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}

/**
 * The demo's and the benchmarks' photos: a handful of photo-like JPEGs (1,500 × 2,100, noise over
 * gradients and a card-shaped panel, as a phone photographs a single or a slab), each with the
 * copies an upload gets, made by the same code (src/server/admin/media-variants.ts). They are not
 * committed: they are written into the storage seed (supabase/storage/products/, git-ignored) when
 * the seed runs or the local stack starts, if not there already. Every pixel derives from the
 * photo's number, so every run writes the same bytes.
 *
 * The local-only seed supabase/local/seed/demo_photos.sql gives the singles and the slabs these
 * photos, chosen from the product's id, so a catalogue of any size (the benchmark's included)
 * shows photos without thousands of files: one photo with its copies takes 5–13 s to make (a
 * busy 2-core machine), so they are made once per checkout and PHOTO_COUNT of them vary the pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { planVariants, sizedPath } from '~/domain/image-variants.ts';
import { decodeUpright, encodeCopy } from '~/server/admin/media-variants.ts';

/** How many distinct photos there are (demo_photos.sql picks among them with the same count). */
export const PHOTO_COUNT = 4;
const WIDTH = 1500;
const HEIGHT = 2100;

/** The stored name of photo `n` (1…PHOTO_COUNT): its upright size recorded, as an upload's. */
export function photoName(n: number): string {
  return sizedPath(`demo-foto-${n}.jpg`, WIDTH, HEIGHT);
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Photo `n`: a lit background gradient, a card-shaped panel with its own gradient and a frame, and sensor noise. */
async function photo(n: number): Promise<Buffer> {
  const rand = random(n * 7919);
  const colour = () => [40 + rand() * 180, 40 + rand() * 180, 40 + rand() * 180];
  const [bgA, bgB, cardA, cardB] = [colour(), colour(), colour(), colour()];
  const card = { left: 230 + rand() * 40, top: 300 + rand() * 40, right: 1270 - rand() * 40, bottom: 1800 - rand() * 40 };
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      const inCard = x > card.left && x < card.right && y > card.top && y < card.bottom;
      const edge = inCard && (x - card.left < 24 || card.right - x < 24 || y - card.top < 24 || card.bottom - y < 24);
      const t = inCard ? (y - card.top) / (card.bottom - card.top) : (x + y) / (WIDTH + HEIGHT);
      const [a, b] = inCard ? [cardA!, cardB!] : [bgA!, bgB!];
      // A soft light from the top left, and the grain of a phone's sensor.
      const light = 1.15 - 0.35 * Math.hypot(x / WIDTH, y / HEIGHT);
      const grain = (rand() - 0.5) * 26;
      const i = (y * WIDTH + x) * 3;
      for (let c = 0; c < 3; c += 1) {
        const base = edge ? 235 : a[c]! + (b[c]! - a[c]!) * t;
        pixels[i + c] = Math.max(0, Math.min(255, base * light + grain));
      }
    }
  }
  return sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .blur(0.6)
    .jpeg({ quality: 88 })
    .toBuffer();
}

/**
 * Writes the demo photos and their copies into `<storageDir>/products/` unless they are there:
 * the number of photos written (0 when all were there).
 */
export async function ensureDemoPhotos(storageDir: string): Promise<number> {
  const dir = path.join(storageDir, 'products');
  fs.mkdirSync(dir, { recursive: true });
  let written = 0;
  for (let n = 1; n <= PHOTO_COUNT; n += 1) {
    const name = photoName(n);
    const plan = planVariants(name, { width: WIDTH, height: HEIGHT, format: 'jpeg', bytes: 0 });
    if (!plan.ok) throw new Error(`demo photo ${n} refused: ${plan.reason}`);
    const expected = [name, ...plan.variants.map((v) => v.path)];
    if (expected.every((file) => fs.existsSync(path.join(dir, file)))) continue;
    const original = await photo(n);
    const pixels = await decodeUpright(original, Math.max(...plan.variants.map((v) => v.width)));
    for (const variant of plan.variants) fs.writeFileSync(path.join(dir, variant.path), await encodeCopy(pixels, variant));
    // The original last: a run stopped halfway is completed by the next one.
    fs.writeFileSync(path.join(dir, name), original);
    written += 1;
  }
  return written;
}

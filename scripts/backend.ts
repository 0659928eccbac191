/**
 * `npm run backend` (and the stack `npm start` runs): the embedded, Supabase-compatible local
 * stack of packages/local-supabase with the shop's configuration.
 *
 *   npm run backend             start on http://127.0.0.1:54321 with data in .data/
 *   npm run backend -- --reset  wipe .data/ first
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from 'local-supabase';

const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

cli({ rootDir: ROOT_DIR });

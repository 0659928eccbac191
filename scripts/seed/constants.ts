/**
 * Fixed identities of the demo data, so tests and docs can refer to them. The passwords are the
 * public demo passwords of the local stack; the accounts live only in the local-only seed
 * (DEMO_SEED_PATH), which no hosted project ever loads.
 */

/** The demo shopper (Ana García). */
export const DEMO_SHOPPER = {
  id: '5b1c2a9e-7d3f-4c4e-9a61-0c2f6b1e8a01',
  email: 'cliente@demo.mx',
  password: 'Cliente123!',
  username: 'anagarcia',
  name: 'Ana',
  lastname: 'García',
  phone: '+52 55 1234 5678',
} as const;

/** The demo admin, who may publish products. */
export const DEMO_ADMIN = {
  id: '9e8d7c6b-5a49-4382-8170-6f5e4d3c2b01',
  email: 'admin@demo.mx',
  password: 'Admin123!',
  username: 'admin',
  name: 'Admin',
  lastname: 'Tienda',
  phone: '+52 33 8765 4321',
} as const;

/** The demo shopper's addresses: the first is the default. */
export const DEMO_ADDRESS_IDS = {
  home: 'a1d2e3f4-0001-4a00-8000-000000000001',
  office: 'a1d2e3f4-0002-4a00-8000-000000000002',
} as const;

/** Reward points of the demo shopper. */
export const DEMO_REWARD_POINTS = 1250;

/** Number of past orders of the demo shopper in the default seed. */
export const DEMO_ORDER_COUNT = 11;

/** The product the home page's third hero slide links to. */
export const HERO_PRODUCT_ID = 'pk-boosterbox-journey-together';

/** Where the default seed is written, relative to the project root. */
export const DEFAULT_SEED_PATH = 'supabase/seed.sql';

/**
 * Where the local-only demo accounts are written, relative to the project root: the embedded stack
 * applies supabase/local/seed/*.sql after supabase/seed.sql (scripts/local-supabase/migrate.ts).
 */
export const DEMO_SEED_PATH = 'supabase/local/seed/demo_accounts.sql';

/** Where the seed images are written (one folder per storage bucket), relative to the root. */
export const STORAGE_SEED_DIR = 'supabase/storage';

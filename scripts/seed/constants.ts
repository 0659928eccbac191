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

/**
 * Reward points of the demo shopper: exactly what their paid, shipped and completed orders earned
 * (one point per peso of subtotal - discount); tests/db/migrations.test.ts checks the seed agrees.
 */
export const DEMO_REWARD_POINTS = 8148;

/** Number of past orders of the demo shopper in the default seed. */
export const DEMO_ORDER_COUNT = 11;

/** The product the home page's third hero slide links to. */
export const HERO_PRODUCT_ID = 'pk-boosterbox-journey-together';

/** Where the default seed is written, relative to the project root. */
export const DEFAULT_SEED_PATH = 'supabase/seed.sql';

/**
 * Where the local-only demo accounts are written, relative to the project root: the embedded stack
 * applies supabase/local/seed/*.sql after supabase/seed.sql (packages/local-supabase/src/migrate.ts).
 */
export const DEMO_SEED_PATH = 'supabase/local/seed/demo_accounts.sql';

/** Where the seed images are written (one folder per storage bucket), relative to the root. */
export const STORAGE_SEED_DIR = 'supabase/storage';

/**
 * A second demo customer (Luis Pérez) whose orders fill the back office: one in every status
 * ('Pendiente' through 'Reembolsado'), several paid in the last 30 days for the sales chart. The
 * demo shopper's own history (DEMO_ORDER_COUNT, DEMO_REWARD_POINTS) stays as it is.
 */
export const DEMO_CUSTOMER = {
  id: '5b1c2a9e-7d3f-4c4e-9a61-0c2f6b1e8a02',
  email: 'luis@demo.mx',
  password: 'Luis123!',
  username: 'luisperez',
  name: 'Luis',
  lastname: 'Pérez',
  phone: '+52 81 5555 0101',
} as const;

/** The demo customer's address. */
export const DEMO_CUSTOMER_ADDRESS_ID = 'a1d2e3f4-0003-4a00-8000-000000000003';

/** Number of orders of the demo customer (one or more in every status). */
export const DEMO_CUSTOMER_ORDER_COUNT = 12;

/** Newsletter subscribers of the demo data (reserved example domains). */
export const DEMO_SUBSCRIBERS = [
  'maria.lopez@example.com',
  'jorge.hernandez@example.com',
  'sofia.ramirez@example.mx',
  'diego.torres@example.net',
  'valeria.cruz@example.com',
  'coleccionista+pokemon@example.mx',
  'emilio.sanchez@example.org',
  'fernanda.reyes@example.com',
] as const;

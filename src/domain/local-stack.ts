/**
 * The local Supabase-compatible stack that `npm start` launches (packages/local-supabase on its
 * default LOCAL_SUPABASE_PORT): the shop talks to it when PUBLIC_SUPABASE_URL is not set, so a
 * build without .env still reaches something instead of throwing at import time.
 */
export const LOCAL_SUPABASE_URL = 'http://127.0.0.1:54321';

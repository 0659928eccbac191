// @ts-check
import { defineConfig, envField } from 'astro/config';
import node from '@astrojs/node';
import sitemap from '@astrojs/sitemap';
import { catalogDirectives } from './src/integrations/client-directives/integration.ts';
import { storefrontChunk } from './src/integrations/storefront-chunk.ts';
import { prerenderStrings } from './src/integrations/prerender-strings.ts';
import { reactIslands } from './src/integrations/react-islands/integration.ts';

export default defineConfig({
  site: process.env.SITE_URL || 'http://localhost:4321',
  output: 'static',
  // A separate output folder per run when ASTRO_OUT_DIR is set (parallel test runs).
  outDir: process.env.ASTRO_OUT_DIR || './dist',
  cacheDir: process.env.ASTRO_OUT_DIR ? `./node_modules/.astro-${process.env.ASTRO_OUT_DIR.replace(/[^\w-]/g, '_')}` : './node_modules/.astro',
  // bodySizeLimit: no request body is read past 1 MB by anything the server runs (the adapter's
  // default is 1 GiB). The endpoints read theirs with a lower cap of their own as it streams
  // (src/server/http/json.ts readText: 16 KB, 512 KB for the payment webhooks).
  // experimentalDisableStreaming: a page rendered on request is rendered to one string, not streamed
  // chunk by chunk: the server holds every HTML answer whole anyway, to hash its inline scripts
  // for the policy header (src/server/security-headers.ts), so streaming sent nothing sooner, and
  // its chunks were most of the time an edit's pages took to render in the running server at
  // 100,000 products (docs/benchmarks.md).
  adapter: node({ mode: 'standalone', bodySizeLimit: 1024 * 1024, experimentalDisableStreaming: true }),
  // Stylesheets go inline (about 3.5 KB gzip per page): no render-blocking request before the
  // first paint, which on a phone's network decides the product image's paint (LCP).
  // Four pages rendered at once: while one page's file is written the next renders (10,000
  // products: 70 s → 49 s, docs/benchmarks-log.md). ASTRO_BUILD_CONCURRENCY overrides it for measuring.
  build: { inlineStylesheets: 'always', concurrency: Number(process.env.ASTRO_BUILD_CONCURRENCY) || 4 },
  // The sitemap splits into files of at most 50,000 URLs (the protocol's limit) under
  // sitemap-index.xml; incremental rebuilds keep the same layout (src/server/rebuild/sitemap.ts).
  // catalogDirectives: client:interaction and client:event, so product pages ship no framework code
  // before the visitor reaches for an island.
  // experimentalDisableStreaming: islands render with React's renderToString instead of a web
  // stream read back into a string, a third less CPU per prerendered page (docs/benchmarks-log.md).
  // No island suspends while it renders on the server (the lazy payment and product forms load
  // after a click), which is what streaming would wait for.
  // reactIslands: @astrojs/react with its server renderer wrapped, so the islands that take no props
  // (header, footer, toaster) render once per process (src/integrations/react-islands/renderer.ts).
  // /explore is rendered on request (its results follow its address), so the sitemap names it itself.
  integrations: [
    reactIslands({ experimentalDisableStreaming: true }),
    sitemap({ entryLimit: 50_000, customPages: [new URL('/explore', process.env.SITE_URL || 'http://localhost:4321').href] }),
    catalogDirectives(),
  ],
  // The modules the storefront's page scripts import (cart, prices, toasts, live stock and
  // offers, nanostores) go out as one file instead of a dozen of 0.3–2 KB, each its own request
  // with its own headers, found one import level after another before the page is interactive.
  // prerenderStrings: pages the build prerenders are rendered to one string each, not streamed
  // (src/integrations/prerender-strings.ts).
  vite: {
    plugins: [prerenderStrings()],
    environments: { client: { build: { rolldownOptions: { output: { codeSplitting: { groups: [storefrontChunk()] } } } } } },
  },
  // Every variable the app reads, with where it may be used. All optional: without them the
  // shop runs against the local stack that `npm start` launches. See .env.example.
  env: {
    schema: {
      PUBLIC_SUPABASE_URL: envField.string({ context: 'client', access: 'public', optional: true, url: true }),
      PUBLIC_SUPABASE_ANON_KEY: envField.string({ context: 'client', access: 'public', optional: true }),
      SUPABASE_SERVICE_ROLE_KEY: envField.string({ context: 'server', access: 'secret', optional: true }),
      SUPABASE_JWT_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      LOCAL_SUPABASE_PORT: envField.number({ context: 'server', access: 'public', optional: true, int: true }),
      LOCAL_SUPABASE_AUTOCONFIRM: envField.boolean({ context: 'server', access: 'public', optional: true }),
      DATABASE_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
      STRIPE_SECRET_KEY: envField.string({ context: 'server', access: 'secret', optional: true }),
      // The publishable key and the PayPal client id are public, but read on the server at run
      // time (getSecret) and handed to the checkout page, so one build serves any configuration.
      PUBLIC_STRIPE_PUBLISHABLE_KEY: envField.string({ context: 'server', access: 'secret', optional: true }),
      STRIPE_WEBHOOK_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      PUBLIC_PAYPAL_CLIENT_ID: envField.string({ context: 'server', access: 'secret', optional: true }),
      // live: Stripe and PayPal with their keys (a provider without keys is unavailable);
      // simulated: the simulated provider for every method. Default: simulated on the embedded
      // local stack, live otherwise.
      PAYMENTS_MODE: envField.enum({ context: 'server', access: 'secret', optional: true, values: ['live', 'simulated'] }),
      PAYPAL_CLIENT_SECRET: envField.string({ context: 'server', access: 'secret', optional: true }),
      PAYPAL_WEBHOOK_ID: envField.string({ context: 'server', access: 'secret', optional: true }),
      SITE_URL: envField.string({ context: 'server', access: 'public', optional: true, url: true }),
      // The shop's e-mails go out over SMTP when both are set (e.g. smtps://user:pass@host:465 and
      // "Cartas Mx <pedidos@example.com>"). Read at run time (getSecret), so MAIL_FROM, public in
      // itself, is declared like a secret: never frozen into the build.
      SMTP_URL: envField.string({ context: 'server', access: 'secret', optional: true }),
      MAIL_FROM: envField.string({ context: 'server', access: 'secret', optional: true }),
    },
  },
});

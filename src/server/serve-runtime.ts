/**
 * Everything scripts/serve.mjs needs from the TypeScript sources, as one entry that
 * scripts/build-server-runtime.mjs bundles into `<outDir>/server/runtime.mjs` with each build.
 * The production server therefore runs on plain `node` with production dependencies only (no
 * tsx): the shared rebuilds, the builder and output swapping, the product-change watcher and the security
 * headers. Packages stay external imports; only the shop's own modules are bundled.
 */
export * from './rebuild/registry.ts';
export * from './rebuild/build-process.ts';
export * from './rebuild/builder.ts';
export * from './rebuild/served-folder.ts';
export * from './rebuild/realtime.ts';
export * from './rebuild/job-queue.ts';
export * from './security-headers.ts';
export * from './document-compression.ts';
export { rewriteServedPage } from './late-scripts.ts';
export { serverFastEditor } from './rebuild/fast-edit-client.ts';
export { renderWarmUpPaths } from './explore/warm-up.ts';

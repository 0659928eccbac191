/**
 * Which products the home sliders show (src/domain/routes.ts, where the incremental rebuild reads
 * it too).
 */
export { homeLists, type HomeLists } from '~/domain/routes.ts';

/**
 * Which products the home sliders show (src/domain/routes.ts, where the incremental rebuild reads
 * it too).
 */
export { homeLists } from '~/domain/routes.ts';

/**
 * Swiper with only the hero's modules, imported by name so the bundle holds just these (a dynamic
 * import of 'swiper/modules' would pull every module in).
 */
export { default as Swiper } from 'swiper';
export { A11y, Autoplay, EffectFade, Pagination } from 'swiper/modules';

/** Swiper with only the product sliders' modules (see ./swiper-hero.ts). */
export { default as Swiper } from 'swiper';
export { A11y, Navigation } from 'swiper/modules';

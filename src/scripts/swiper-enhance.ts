/**
 * Turns the server-rendered hero and product sliders into Swiper carousels when they come into
 * view. Only Swiper's core and the modules used are loaded (./swiper-hero.ts, ./swiper-slider.ts),
 * and only then: the hero at once, a product slider when it scrolls near the viewport.
 */
import { CATALOG_CAROUSEL_SCRIPT_TEXT as TEXT } from '~/i18n/catalog.ts';

/** Slides per view by minimum viewport width (5, 4 up to 1280 px, 3 up to 1024, 2 up to 768, 1 up to 520). */
export const SLIDER_BREAKPOINTS = {
  0: { slidesPerView: 1 },
  521: { slidesPerView: 2 },
  769: { slidesPerView: 3 },
  1025: { slidesPerView: 4 },
  1281: { slidesPerView: 5 },
} as const;

/** Hero autoplay delay of the specification. */
export const HERO_AUTOPLAY_MS = 5000;

/** A slider loops only with more than this many products. */
export const LOOP_THRESHOLD = 5;

/** Whether a slider with `count` products loops. */
export function shouldLoop(count: number): boolean {
  return count > LOOP_THRESHOLD;
}

function reducedMotion(): boolean {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

async function enhanceHero(root: HTMLElement): Promise<void> {
  const { Swiper, Autoplay, EffectFade, Pagination, A11y } = await import('./swiper-hero.ts');
  const swiper = new Swiper(root.querySelector<HTMLElement>('.swiper')!, {
    modules: [Autoplay, EffectFade, Pagination, A11y],
    effect: 'fade',
    fadeEffect: { crossFade: true },
    loop: true,
    speed: 600,
    autoplay: reducedMotion() ? false : { delay: HERO_AUTOPLAY_MS, pauseOnMouseEnter: true, disableOnInteraction: false },
    pagination: { el: root.querySelector<HTMLElement>('.swiper-pagination')!, clickable: true },
    a11y: { prevSlideMessage: TEXT.heroPrevious, nextSlideMessage: TEXT.heroNext, paginationBulletMessage: TEXT.heroBullet },
  });
  root.dataset.enhanced = 'true';
  root.dataset.autoplay = swiper.autoplay?.running ? 'on' : 'off';
}

async function enhanceSlider(root: HTMLElement): Promise<void> {
  const { Swiper, Navigation, A11y } = await import('./swiper-slider.ts');
  const count = root.querySelectorAll('.swiper-slide').length;
  new Swiper(root.querySelector<HTMLElement>('.swiper')!, {
    modules: [Navigation, A11y],
    slidesPerView: 1,
    spaceBetween: 16,
    loop: shouldLoop(count),
    breakpoints: SLIDER_BREAKPOINTS,
    navigation: {
      prevEl: root.querySelector<HTMLElement>('[data-slider-prev]'),
      nextEl: root.querySelector<HTMLElement>('[data-slider-next]'),
    },
    a11y: { prevSlideMessage: TEXT.sliderPrevious, nextSlideMessage: TEXT.sliderNext },
  });
  root.dataset.enhanced = 'true';
  root.dataset.loop = String(shouldLoop(count));
}

/** Watches every `[data-carousel]` on the page and enhances each once it nears the viewport. */
export function enhanceCarousels(): void {
  const roots = Array.from(document.querySelectorAll<HTMLElement>('[data-carousel]'));
  const run = (root: HTMLElement) => {
    const job = root.dataset.carousel === 'hero' ? enhanceHero(root) : enhanceSlider(root);
    // Without Swiper the server-rendered slides still scroll sideways; nothing else to do.
    job.catch(() => undefined);
  };
  if (!('IntersectionObserver' in window)) {
    roots.forEach(run);
    return;
  }
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        run(entry.target as HTMLElement);
      }
    },
    { rootMargin: '200px 0px' },
  );
  roots.forEach((root) => observer.observe(root));
}

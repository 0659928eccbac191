/**
 * `client:interaction`: hydrate an island only when the visitor reaches for it (pointer over,
 * touch, focus or a key). Until then the server HTML stands in and no framework code loads, which
 * keeps the product page light. A click that lands before hydration finishes is held and replayed
 * on the same element afterwards, so the first click is never lost. `client:interaction="name"`
 * also hydrates when `name` is dispatched on window (the buy box wakes on 'tienda:stock-changed'
 * when the live stock differs from the page).
 */
import type { ClientDirective } from 'astro';

const TRIGGERS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'keydown'] as const;

const interaction: ClientDirective = (load, options, el) => {
  let started = false;
  let pendingClick: HTMLElement | null = null;

  const holdClick = (event: Event) => {
    const target = event.target;
    if (!(target instanceof HTMLElement)) return;
    event.preventDefault();
    event.stopPropagation();
    pendingClick = target;
    void start();
  };

  const start = async () => {
    if (started) return;
    started = true;
    for (const type of TRIGGERS) el.removeEventListener(type, start, { capture: true });
    const hydrate = await load();
    await hydrate();
    el.removeEventListener('click', holdClick, { capture: true });
    const target = pendingClick;
    pendingClick = null;
    // React attaches its listeners while hydrating; give it a frame before replaying.
    if (target) requestAnimationFrame(() => target.isConnected && target.click());
  };

  el.addEventListener('click', holdClick, { capture: true });
  for (const type of TRIGGERS) el.addEventListener(type, start, { capture: true, passive: true, once: true });
  if (typeof options.value === 'string' && options.value !== '') window.addEventListener(options.value, () => void start(), { once: true });
};

export default interaction;

/**
 * `client:event="name"`: hydrate an island the first time `name` is dispatched on window (the
 * Toaster waits for the first toast). Until then it costs nothing.
 */
import type { ClientDirective } from 'astro';

const onEvent: ClientDirective = (load, options, _el) => {
  const name = typeof options.value === 'string' && options.value !== '' ? options.value : 'tienda:toast';
  const start = async () => {
    const hydrate = await load();
    await hydrate();
  };
  window.addEventListener(name, () => void start(), { once: true });
};

export default onEvent;

/**
 * Input typed before an island hydrates is never lost: the shop's one mechanism for every island
 * that takes over a prebuilt control.
 *
 * Astro sends each island's HTML first and React hydrates it later: on a phone-speed CPU, seconds
 * later. Meanwhile the shopper can type into the server-rendered inputs, tick boxes, focus a field
 * or press Enter. React keeps the DOM value while hydrating, but its first re-render writes the
 * state (still the initial value) back into the field, and a submit before hydration would leave
 * the page as a plain GET. So:
 *
 * 1. Values and focus: `usePrebuiltInput` (one control) and `usePrebuiltForm` (every named field
 *    of a form) read the DOM at hydration, in a layout effect (before any re-render can overwrite
 *    it), and hand what differs from the state to the island's own setter, so the island acts on
 *    it exactly as if it had been typed afterwards (the filter applies, the search opens, the
 *    quantity stays). A field that has focus gets the island's onFocus too.
 * 2. Submits: forms marked `data-prebuilt` are guarded by a small inline script in BaseLayout
 *    (PREBUILT_SUBMIT_GUARD): a submit before the island is live is held (`data-pending-submit`)
 *    instead of navigating, and `usePrebuiltForm` replays it with requestSubmit() once the adopted
 *    values have rendered. The form is then marked `data-live`, and submits go to React as usual.
 * 3. Clicks on islands that hydrate on interaction are held and replayed by the `client:interaction`
 *    directive (src/integrations/client-directives/interaction.ts).
 */
import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';

/**
 * The inline script BaseLayout puts in every page's head, before any island. It holds the submit
 * of a `form[data-prebuilt]` that is not yet `data-live`.
 */
export const PREBUILT_SUBMIT_GUARD =
  "addEventListener('submit',function(e){var f=e.target;if(f instanceof HTMLFormElement&&f.hasAttribute('data-prebuilt')&&!f.hasAttribute('data-live')){e.preventDefault();f.setAttribute('data-pending-submit','')}},true);";

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The DOM's current value of a control as a string (checkboxes: 'on' or ''). */
function domValue(control: Control): string {
  if (control instanceof HTMLInputElement && (control.type === 'checkbox' || control.type === 'radio')) {
    return control.checked ? 'on' : '';
  }
  return control.value;
}

interface InputOptions {
  /** Called when the control already had focus at hydration (e.g. the search opens). */
  onFocus?: () => void;
}

/**
 * Adopts, once at hydration, what the shopper typed (or toggled) into a prebuilt control: when the
 * DOM value differs from `value`, `setValue(domValue)` runs; when the control has focus, `onFocus`.
 * @example usePrebuiltInput(inputRef, query, setQuery, { onFocus: open })
 */
export function usePrebuiltInput(ref: RefObject<Control | null>, value: string, setValue: (typed: string) => void, options: InputOptions = {}): void {
  useLayoutEffect(() => {
    const control = ref.current;
    if (!control) return;
    const typed = domValue(control);
    if (typed !== value) setValue(typed);
    if (options.onFocus && document.activeElement === control) options.onFocus();
    // Once, at hydration: what was typed before the island loaded is adopted a single time;
    // later changes reach the island through its own handlers.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, at hydration
  }, []);
}

/**
 * Adopts every named field of a prebuilt form (see usePrebuiltInput), then marks the form live and
 * replays a submit held before hydration. `values` are the island's current field values by name;
 * `setField(name, typed)` is called for each field whose DOM value differs. Returns whether the
 * form is live.
 * @example usePrebuiltForm(formRef, form, (name, typed) => setForm((f) => ({ ...f, [name]: typed })))
 */
export function usePrebuiltForm(
  ref: RefObject<HTMLFormElement | null>,
  values: Record<string, string>,
  setField: (name: string, typed: string) => void,
): boolean {
  const [live, setLive] = useState(false);
  const [replay, setReplay] = useState(false);
  useLayoutEffect(() => {
    const form = ref.current;
    if (!form) return;
    for (const element of Array.from(form.elements)) {
      if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement)) continue;
      if (!element.name || !(element.name in values)) continue;
      const typed = domValue(element);
      if (typed !== values[element.name]) setField(element.name, typed);
    }
    form.setAttribute('data-live', '');
    setLive(true);
    if (form.hasAttribute('data-pending-submit')) {
      form.removeAttribute('data-pending-submit');
      setReplay(true);
    }
    // Once, at hydration: adopts the values typed into the server-rendered form before the
    // island loaded; running again would overwrite what the island holds since.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, at hydration
  }, []);
  // After the adopted values have rendered, so the island's submit handler sees them.
  useEffect(() => {
    if (replay) ref.current?.requestSubmit();
  }, [replay, ref]);
  return live;
}

/**
 * False while React hydrates the server HTML, true from the first effect on. State that only the
 * browser knows (the stored cart, a toast already in the store, the session) must render only
 * when this is true: the first client render then matches the server's HTML exactly, so hydration
 * never fails (React #418), and the browser's state appears one render later.
 * @example const mounted = useMounted(); const items = mounted ? cart : [];
 */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

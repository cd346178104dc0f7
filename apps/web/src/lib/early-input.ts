/**
 * What a reader types into a prerendered page before it is live. The fields are on screen (and editable) as soon
 * as the HTML arrives, but their values live in React state, and hydration sets each controlled field back to
 * the value it was rendered with: text typed while the page's code was loading was lost. So main.tsx calls
 * `keepEarlyInput` before hydrating: it notes the fields already changed (their value no longer the one in the
 * HTML) and every change made until the page is live, then, once it is, gives each such field its value again
 * the way typing would (an input or change event), so the page's own handlers put it in their state.
 * Fields are known by id (React's useId ids are the same in the HTML and once hydrated).
 */
type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
type Kept = { checked: boolean } | { value: string };

const isField = (node: EventTarget | null): node is Field =>
  node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement || node instanceof HTMLSelectElement;
const isToggle = (field: Field): field is HTMLInputElement =>
  field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');
/** Files cannot be set again, nor should hidden or button inputs be. */
const KEPT_TYPES = (field: Field) =>
  !(field instanceof HTMLInputElement && ['file', 'hidden', 'submit', 'button', 'reset', 'image'].includes(field.type));

/** Whether the field's value is no longer the one the HTML gave it. */
function changedFromHtml(field: Field): boolean {
  if (isToggle(field)) return field.checked !== field.defaultChecked;
  if (field instanceof HTMLSelectElement) return [...field.options].some((option) => option.selected !== option.defaultSelected);
  return field.value !== field.defaultValue;
}

const keep = (field: Field): Kept => (isToggle(field) ? { checked: field.checked } : { value: field.value });

/**
 * Gives the live field the kept value as typing would. Hydration leaves a field's value as it finds it, but React's
 * state holds the rendered one (also the field's default since hydration), and React calls onChange only for a
 * value it has not seen. So the field first gets the rendered value, set through its own property as React
 * tracks it, then the reader's through the prototype's setter, which React has not seen, then the event React
 * listens to.
 */
function restore(field: Field, kept: Kept) {
  if (field instanceof HTMLSelectElement) {
    if ('value' in kept) {
      field.value = kept.value;
      // A select's onChange takes every change event: a value React already holds changes nothing.
      field.dispatchEvent(new Event('change', { bubbles: true }));
    }
    return;
  }
  if (isToggle(field)) {
    if (!('checked' in kept)) return;
    field.checked = field.defaultChecked;
    // A click toggles it and is what React's onChange of a checkbox or radio listens to.
    if (field.checked !== kept.checked) field.click();
    return;
  }
  if (!('value' in kept)) return;
  field.value = field.defaultValue;
  if (kept.value === field.defaultValue) return;
  const prototype = Object.getPrototypeOf(field) as object;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, kept.value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

/** Starts noting the reader's input in `root`; `live` resolves when the page is live, and the input is given back then. */
export function keepEarlyInput(root: HTMLElement, live: Promise<void>) {
  const kept = new Map<string, Kept>();
  for (const field of root.querySelectorAll<Field>('input, textarea, select')) {
    if (field.id && KEPT_TYPES(field) && changedFromHtml(field)) kept.set(field.id, keep(field));
  }
  const note = (event: Event) => {
    const field = event.target;
    if (isField(field) && field.id && KEPT_TYPES(field) && root.contains(field)) kept.set(field.id, keep(field));
  };
  // Capturing: noted before any handler (hydrated or not) can stop the event.
  root.addEventListener('input', note, true);
  root.addEventListener('change', note, true);
  void live.then(() => {
    root.removeEventListener('input', note, true);
    root.removeEventListener('change', note, true);
    for (const [id, value] of kept) {
      const field = document.getElementById(id);
      if (isField(field)) restore(field, value);
    }
  });
}

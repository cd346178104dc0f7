import { expect } from 'vitest';

/** `element` shows each of `texts` (a card's or a row's facts, checked one by one so a failure names the missing one). */
export function expectTexts(element: HTMLElement, texts: string[]) {
  for (const text of texts) expect(element).toHaveTextContent(text);
}

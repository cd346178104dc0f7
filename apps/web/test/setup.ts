import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { initI18n } from '../src/i18n/i18n.ts';

// jsdom has no layout: CodeMirror measures text ranges, so give ranges empty geometry.
if (!Range.prototype.getClientRects) {
  Range.prototype.getClientRects = () =>
    ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
}

beforeAll(async () => {
  await initI18n({ lng: 'en' });
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

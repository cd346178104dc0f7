import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';
import { initI18n } from '../src/i18n/i18n.ts';

// jsdom has no layout: CodeMirror measures text ranges, so give ranges empty geometry.
// (Node-environment files, such as the dev server's, have no DOM and skip this setup.)
const hasDom = typeof window !== 'undefined';
if (hasDom && !Range.prototype.getClientRects) {
  Range.prototype.getClientRects = () =>
    ({ length: 0, item: () => null, [Symbol.iterator]: [][Symbol.iterator] }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect(0, 0, 0, 0);
}

beforeAll(async () => {
  if (!hasDom) return;
  await initI18n({ lng: 'en' });
  // The code editor loads CodeMirror and its grammars on demand; loading them here, outside any test's
  // time limit, keeps the first editor of a file from spending its test's 5 seconds on module transforms.
  const grammars = ['html', 'xml', 'json', 'javascript', 'python'] as const;
  await Promise.all([import('../src/components/ui/code-mirror-setup.ts'), ...grammars.map((name) => import(`@codemirror/lang-${name}`))]);
}, 60_000);

afterEach(() => {
  if (!hasDom) return;
  cleanup();
  localStorage.clear();
});

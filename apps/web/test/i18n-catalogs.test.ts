import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ErrorCodes, MessageIds, ProblemMessages } from '@render/contracts';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { WebMessages } from '../src/i18n/message-ids.ts';
import { ErrorTexts } from '../src/lib/api-client.ts';

const root = join(import.meta.dirname, '..');
const locales = join(root, 'src/i18n/locales');
const read = (lng: string, ns: string) => JSON.parse(readFileSync(join(locales, lng, `${ns}.json`), 'utf8')) as Record<string, unknown>;

/** Every leaf key as a dotted path (array items included, since catalogs hold lists). */
function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}

const namespaces = (lng: string) =>
  readdirSync(join(locales, lng))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''))
    .sort();

describe('i18n catalogs', () => {
  it('has the same namespaces in English and French', () => {
    expect(namespaces('fr')).toEqual(namespaces('en'));
  });

  for (const ns of namespaces('en')) {
    it(`${ns}: every key exists in both languages, none empty`, () => {
      const en = keys(read('en', ns)).sort();
      const fr = keys(read('fr', ns)).sort();
      expect(
        fr.filter((k) => !en.includes(k)),
        'only in fr',
      ).toEqual([]);
      expect(
        en.filter((k) => !fr.includes(k)),
        'missing from fr',
      ).toEqual([]);
      for (const lng of ['en', 'fr']) {
        const flat = JSON.stringify(read(lng, ns));
        expect(flat.includes('""'), `${lng}/${ns} has an empty string`).toBe(false);
      }
    });
  }

  it('has every message id of the contracts and of the app, in English word for word and in French (docs/spec/errors.md)', () => {
    const en = read('en', 'messages') as Record<string, string>;
    const fr = read('fr', 'messages') as Record<string, string>;
    const texts: Record<string, string> = {
      ...MessageIds,
      ...Object.fromEntries(Object.entries(WebMessages).map(([key, text]) => [`web.${key}`, text])),
    };
    expect(Object.keys(texts).length).toBeGreaterThan(100);
    // English is the contracts' text itself: the app finds a form's message by it (catalogIdOf).
    expect(en).toEqual(texts);
    expect(Object.keys(fr).sort()).toEqual(Object.keys(texts).sort());
    for (const [id, text] of Object.entries(texts)) {
      expect(fr[id], id).toBeTruthy();
      expect(fr[id], id).not.toBe(text);
    }
    // The app's own copy of the server's sentence for a crash is the same catalog entry.
    expect(ErrorTexts.unexpected).toBe(ProblemMessages.unexpected);
  });

  it('has a sentence for every error code of the contracts, in both languages (toasts translate by code)', () => {
    const en = (read('en', 'errors') as { codes: Record<string, string> }).codes;
    const fr = (read('fr', 'errors') as { codes: Record<string, string> }).codes;
    expect(Object.keys(en).sort()).toEqual(Object.keys(ErrorCodes).sort());
    expect(Object.keys(fr).sort()).toEqual(Object.keys(ErrorCodes).sort());
    for (const code of Object.keys(ErrorCodes)) expect(fr[code], code).not.toBe(en[code]);
  });

  it('quotes the Pro price in dollars in English and euros in French', async () => {
    const { formatPrice } = await import('../src/features/pricing/plans.ts');
    expect(formatPrice(49, 'en')).toBe('$49');
    expect(formatPrice(49, 'fr').replace(/\s/g, ' ')).toBe('49 €');
  });
});

/**
 * No visible text outside the catalogs: JSX text and user-facing attributes (aria-label, title, alt,
 * placeholder, label) in src/ must not hold words. Brand names and symbols are allowed.
 */
describe('no literal UI text', () => {
  const ALLOWED = /^[\s\d·•×—–\-+/:.,()%&|…“”'"!?@#*=<>[\]{}→←✓✕$€]*$/u;
  const TEXT_ATTRIBUTES = new Set(['aria-label', 'title', 'alt', 'placeholder', 'label']);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.tsx')) files.push(path);
    }
  };
  walk(join(root, 'src'));

  it('finds the components to check', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('every visible string comes from the catalogs', () => {
    const offences: string[] = [];
    for (const file of files) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
      const visit = (node: ts.Node) => {
        if (ts.isJsxText(node) && !ALLOWED.test(node.text)) offences.push(`${relative(root, file)}: "${node.text.trim()}"`);
        if (
          ts.isJsxAttribute(node) &&
          TEXT_ATTRIBUTES.has(node.name.getText()) &&
          node.initializer &&
          ts.isStringLiteral(node.initializer)
        ) {
          if (!ALLOWED.test(node.initializer.text))
            offences.push(`${relative(root, file)}: ${node.name.getText()}="${node.initializer.text}"`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(offences).toEqual([]);
  });
});

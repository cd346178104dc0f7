import { OpenApiTextsFr } from './openapi-texts-fr.ts';

/** The languages the OpenAPI document's texts exist in; English is the document as declared. */
export type OpenApiLocale = 'en' | 'fr';

/** Per locale: the translation of each `summary` and `description`, keyed by its English text. */
export const OpenApiTexts: Readonly<Record<Exclude<OpenApiLocale, 'en'>, Readonly<Record<string, string>>>> = { fr: OpenApiTextsFr };

const TEXT_KEYS = new Set(['summary', 'description']);

/**
 * Every `summary` and `description` string of a document, wherever it sits (operations, parameters,
 * schemas, responses, headers, examples, tags). A property *named* `description` is an object there, so it
 * is walked, not taken.
 */
export function openApiTexts(document: unknown): Set<string> {
  const found = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (TEXT_KEYS.has(key) && typeof value === 'string') found.add(value);
        else walk(value);
      }
    }
  };
  walk(document);
  return found;
}

/**
 * The document with its texts in `locale` (a copy; English answers the document itself). A text without a
 * translation stays English, which the gateway's test forbids for the texts the document has today.
 */
export function localizeOpenApi<T>(document: T, locale: OpenApiLocale): T {
  if (locale === 'en') return document;
  const texts = OpenApiTexts[locale];
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (!node || typeof node !== 'object') return node;
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        TEXT_KEYS.has(key) && typeof value === 'string' ? (Object.hasOwn(texts, value) ? texts[value] : value) : copy(value),
      ]),
    );
  };
  return copy(document) as T;
}

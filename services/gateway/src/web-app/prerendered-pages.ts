import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The languages the web app is prerendered in (apps/web scripts/prerender.mjs), the first the default. */
export const PAGE_LANGUAGES = ['en', 'fr'] as const;
export type PageLanguage = (typeof PAGE_LANGUAGES)[number];

/**
 * The reader's language for a prerendered page, before any script runs: the stored choice (the web app mirrors
 * it in the `language` cookie), else the best of Accept-Language, else English (docs/spec/product.md).
 */
export function pageLanguage(cookie: string | undefined, acceptLanguage: string | undefined): PageLanguage {
  const stored = /(?:^|;\s*)language=([a-z]{2})/i.exec(cookie ?? '')?.[1]?.toLowerCase();
  if (isPageLanguage(stored)) return stored;
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? '1',
      );
      return { primary: tag.trim().slice(0, 2).toLowerCase(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.map((entry) => entry.primary).find(isPageLanguage) ?? PAGE_LANGUAGES[0];
}

const isPageLanguage = (value: string | undefined): value is PageLanguage => PAGE_LANGUAGES.includes(value as PageLanguage);

/** A page path as the prerender names it: no trailing slash except for the root. */
export const pagePath = (url: string) => {
  const path = url.split('?')[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
};

// Campaign and referrer tags: they never change what a page shows.
const NEUTRAL_PARAM = /^(utm_[a-z_]+|ref|fbclid|gclid|msclkid)$/;

/**
 * Whether the page prerendered for the URL's path is the page the URL shows: no query, or only campaign tags.
 * Any other parameter (a docs tab, a blog filter) may draw it otherwise, so the client renders it instead.
 */
export const drawnForPathAlone = (url: string) => {
  const query = url.split('?')[1];
  return !query || [...new URLSearchParams(query).keys()].every((key) => NEUTRAL_PARAM.test(key));
};

/**
 * The prerendered pages of a build, `dist/prerendered/<lang><path>/index.html`, by language then path.
 * A build without them (an older one) answers an empty map: every page is then the client-rendered index.html.
 */
export function readPrerenderedPages(distDir: string): Map<string, string> {
  const pages = new Map<string, string>();
  const root = join(distDir, 'prerendered');
  if (!existsSync(root)) return pages;
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = join(dir, name);
      if (statSync(file).isDirectory()) visit(file);
      else if (name === 'index.html') {
        const [lang, ...rest] = relative(root, dir).split(sep);
        if (isPageLanguage(lang)) pages.set(pageKey(lang, `/${rest.join('/')}`), readFileSync(file, 'utf8'));
      }
    }
  };
  visit(root);
  return pages;
}

export const pageKey = (language: PageLanguage, path: string) => `${language} ${path}`;

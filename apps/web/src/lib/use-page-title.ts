import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { livePage } from './page-live.ts';

export interface PageHead {
  /** "<page> · <brand>", or the brand alone. */
  title: string;
  description: string;
  /** The page's address without its query: its canonical URL and Open Graph `og:url`. */
  url: string;
  /** An absolute image URL for social cards, when the page has one. */
  image?: string;
  locale: string;
}

/** A `<meta>` (by `name` or `property`) or `<link rel>` of the head, made when missing. */
function headElement(tag: 'meta' | 'link', key: 'name' | 'property' | 'rel', value: string): HTMLElement {
  let element = document.head.querySelector<HTMLElement>(`${tag}[${key}="${value}"]`);
  if (!element) {
    element = document.createElement(tag);
    element.setAttribute(key, value);
    document.head.append(element);
  }
  return element;
}

/** Writes a page's title, description, canonical URL, Open Graph and Twitter tags into the document's head. */
export function applyPageHead(head: PageHead) {
  document.title = head.title;
  const meta = (key: 'name' | 'property', value: string, content: string | undefined) => {
    if (content === undefined) document.head.querySelector(`meta[${key}="${value}"]`)?.remove();
    else headElement('meta', key, value).setAttribute('content', content);
  };
  meta('name', 'description', head.description);
  headElement('link', 'rel', 'canonical').setAttribute('href', head.url);
  meta('property', 'og:type', 'website');
  meta('property', 'og:site_name', 'Render API');
  meta('property', 'og:title', head.title);
  meta('property', 'og:description', head.description);
  meta('property', 'og:url', head.url);
  meta('property', 'og:locale', head.locale === 'fr' ? 'fr_FR' : 'en_US');
  meta('property', 'og:image', head.image);
  meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary');
  meta('name', 'twitter:title', head.title);
  meta('name', 'twitter:description', head.description);
  meta('name', 'twitter:image', head.image);
}

/**
 * The head of the page being prerendered (no document there): the prerender sets `origin` (the public site),
 * renders, then reads `head` to write it into the static HTML. Unused in the browser.
 */
export const serverHead: { origin: string; head?: PageHead } = { origin: '' };

/**
 * Sets the document's head for the page: title as "<page> · <brand>", and its description (given, else the common
 * catalog's for the current path, else the site's), canonical URL, Open Graph and Twitter tags.
 */
export function usePageTitle(title: string | undefined, options: { description?: string; image?: string } = {}) {
  const { t, i18n } = useTranslation();
  const brand = t('brand');
  const language = i18n.resolvedLanguage ?? 'en';
  const { description, image } = options;
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const headAt = (origin: string): PageHead => {
    const descriptions = t('meta.descriptions', { returnObjects: true }) as Record<string, string>;
    const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
    return {
      title: title ? `${title} · ${brand}` : brand,
      description: description ?? descriptions[path] ?? descriptions.default ?? '',
      url: `${origin}${path}`,
      image: image ? new URL(image, origin).href : undefined,
      locale: language,
    };
  };
  if (import.meta.env.SSR) serverHead.head = headAt(serverHead.origin);
  // biome-ignore lint/correctness/useExhaustiveDependencies: headAt reads exactly these.
  useEffect(() => applyPageHead(headAt(window.location.origin)), [title, brand, description, image, language, pathname, t]);
  useEffect(() => livePage('page'), []);
}

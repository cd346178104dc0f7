import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { languageDetector } from './language-detector.ts';

export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];
/** docs/spec/product.md: detected from the browser, stored under `language`, English when neither says otherwise. */
export const LANGUAGE_STORAGE_KEY = 'language';

/**
 * The stored choice is mirrored in a cookie of the same name, so the server can send the prerendered page in
 * that language (services/gateway web-app plugin) before any script runs.
 */
export const LANGUAGE_COOKIE = 'language';

// One JSON file per language and namespace; a page's namespace loads with the page's own chunk.
const catalogs = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json');
/** Every namespace (one catalog file per language each). */
export const NAMESPACES = [...new Set(Object.keys(catalogs).map((file) => /\/([\w-]+)\.json$/.exec(file)?.[1] ?? 'common'))];

/** The catalogs as an i18next backend (the browser's and the prerender's). */
export const catalogBackend = (): BackendModule => ({
  type: 'backend',
  init: () => {},
  read: (lng, ns, callback) => {
    const load = catalogs[`./locales/${lng}/${ns}.json`];
    if (!load) return callback(null, {});
    load().then(
      (module) => callback(null, module.default as never),
      (error: unknown) => callback(error as Error, null),
    );
  },
});

export function initI18n(options: { lng?: string } = {}) {
  return i18next
    .use(languageDetector({ storageKey: LANGUAGE_STORAGE_KEY, cookie: LANGUAGE_COOKIE, cookieDays: 365 }))
    .use(initReactI18next)
    .use(catalogBackend())
    .init({
      lng: options.lng,
      supportedLngs: LANGUAGES,
      nonExplicitSupportedLngs: true,
      load: 'languageOnly',
      fallbackLng: 'en',
      ns: ['common'],
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    })
    .then(() => {
      const sync = (lng: string) => {
        document.documentElement.lang = lng.slice(0, 2);
      };
      sync(i18next.resolvedLanguage ?? 'en');
      i18next.on('languageChanged', sync);
      return i18next;
    });
}

export const currentLanguage = (): Language => (i18next.resolvedLanguage === 'fr' ? 'fr' : 'en');

import type { LanguageDetectorModule } from 'i18next';

/**
 * docs/spec/product.md's language choice, in a few lines rather than i18next-browser-languagedetector (whose
 * other sources the app does not use; issue 28's first-load budget): the stored choice, else the browser's
 * languages, else the page's own `lang`. i18next keeps the first one it supports (`en` otherwise) and stores it
 * through `cacheUserLanguage`, in local storage and in the cookie the gateway reads to pick a prerendered page.
 */
export function languageDetector(options: { storageKey: string; cookie: string; cookieDays: number }): LanguageDetectorModule {
  const storage = () => {
    try {
      return window.localStorage;
    } catch {
      return undefined; // storage refused (privacy settings): the choice lasts for the page only
    }
  };
  return {
    type: 'languageDetector',
    detect: () => {
      const stored = storage()?.getItem(options.storageKey);
      const found = [stored, ...(navigator.languages ?? []), navigator.language, document.documentElement.getAttribute('lang')];
      return found.filter((code): code is string => typeof code === 'string' && /^[A-Za-z0-9_-]{1,35}$/.test(code));
    },
    cacheUserLanguage: (language: string) => {
      try {
        storage()?.setItem(options.storageKey, language);
      } catch {
        // storage full or refused: the cookie below still carries the choice
      }
      const expires = new Date(Date.now() + options.cookieDays * 86_400_000).toUTCString();
      // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is async and not in every browser the site serves.
      document.cookie = `${options.cookie}=${encodeURIComponent(language)}; Path=/; Expires=${expires}; SameSite=Lax`;
    },
  };
}

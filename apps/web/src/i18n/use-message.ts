import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../lib/api-client.ts';

/**
 * Messages arrive in English (from the contracts or the server, docs/spec/validation.md, errors.md); the `messages` catalog is
 * keyed by that English text, so French users read the translation. Given a thrown value instead of a
 * string, it reads it by the rule of docs/spec/errors.md (`errorText`); a server message the catalog does not hold (one
 * naming a field's bounds, a limit's numbers) is shown as sent in English and, in another language, as
 * the `errors` catalog's sentence for the answer's `code`, so nobody reads an English toast on the
 * French site.
 */
export function useMessageText(): (message: string | undefined | unknown) => string {
  const { t, i18n } = useTranslation(['messages', 'errors']);
  return (input) => {
    if (input === undefined || input === null || input === '') return '';
    const message = typeof input === 'string' ? input : errorText(input);
    const options = { ns: 'messages', keySeparator: false, nsSeparator: false } as const;
    const language = i18n.resolvedLanguage ?? 'en';
    // The catalog has a sentence for every code of the contracts' ErrorCodes (test/i18n-catalogs.test.ts).
    const code = input instanceof ApiError && input.code && i18n.exists(`codes.${input.code}`, { ns: 'errors' }) ? input.code : undefined;
    const catalogued = Object.hasOwn((i18n.getResourceBundle(language, 'messages') as object | undefined) ?? {}, message);
    if (!code || language === 'en' || catalogued) {
      return t(message, { ...options, defaultValue: message });
    }
    return t(`codes.${code}`, { ns: 'errors' });
  };
}

import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../lib/api-client.ts';
import { catalogIdOf } from './message-ids.ts';

/**
 * Turns a message into the reader's language. The `messages` catalog is keyed by id (`auth.emailTaken`, the
 * contracts' message catalog; `web.*`, the app's own). A server error is translated by the id its answer
 * carries (`messageId`), whatever its English words; without one (a message naming a field's bounds, a
 * limit's numbers), it is shown as sent in English and, in another language, as the `errors` catalog's
 * sentence for the answer's `code`, so nobody reads an English toast on the French site. A string, or an
 * error the app made itself, is found by its English text (docs/spec/validation.md, errors.md).
 */
export function useMessageText(): (message: string | undefined | unknown) => string {
  const { t, i18n } = useTranslation(['messages', 'errors']);
  const options = { ns: 'messages', keySeparator: false, nsSeparator: false } as const;
  return (input) => {
    if (input === undefined || input === null || input === '') return '';
    const id = input instanceof ApiError ? input.messageId : undefined;
    if (id && i18n.exists(id, options)) return t(id, options);
    const message = typeof input === 'string' ? input : errorText(input);
    // The catalog has a sentence for every code of the contracts' ErrorCodes (test/i18n-catalogs.test.ts).
    const code = input instanceof ApiError && input.code && i18n.exists(`codes.${input.code}`, { ns: 'errors' }) ? input.code : undefined;
    if (code && (i18n.resolvedLanguage ?? 'en') !== 'en') return t(`codes.${code}`, { ns: 'errors' });
    const catalogued = catalogIdOf(i18n.getResourceBundle('en', 'messages') as Record<string, unknown> | undefined, message);
    return catalogued ? t(catalogued, { ...options, defaultValue: message }) : message;
  };
}

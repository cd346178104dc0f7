import { useTranslation } from 'react-i18next';

/**
 * Messages arrive in English (from the contracts or the server, spec §5/§8); the `messages` catalog is
 * keyed by that English text, so French users read the translation and an unknown server message is
 * shown as sent.
 */
export function useMessageText(): (message: string | undefined) => string {
  const { t } = useTranslation('messages');
  return (message) => (message ? t(message, { keySeparator: false, nsSeparator: false, defaultValue: message }) : '');
}

import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useMessageText } from '../../i18n/use-message.ts';
import { useBusyAction } from './use-busy-action.ts';

/** What every account screen starts from: its texts, the server messages' translator, navigation and its busy action. */
export function useAuthPage() {
  const { t } = useTranslation('auth');
  const text = useMessageText();
  const navigate = useNavigate();
  return { t, text, navigate, ...useBusyAction() };
}

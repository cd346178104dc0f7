import { useTranslation } from 'react-i18next';
import { Toaster } from 'sonner';

/** docs/spec/screens.md: toasts top-right, closing after 5 seconds. */
export const TOAST_DURATION_MS = 5000;
/**
 * Below the sticky header (h-14 and its border) with a gap, so a toast never covers the language switch,
 * the user menu or the phone menu button.
 */
export const TOAST_TOP_OFFSET = '4.5rem';

/**
 * The app's one toaster. `expand`: every toast is shown whole, one under the other, so an earlier error
 * stays readable next to a later success instead of lying hidden under it in sonner's collapsed pile.
 */
export function AppToaster() {
  const { t } = useTranslation();
  return (
    <Toaster
      position="top-right"
      offset={{ top: TOAST_TOP_OFFSET, right: 16 }}
      mobileOffset={{ top: TOAST_TOP_OFFSET, left: 16, right: 16 }}
      expand
      visibleToasts={4}
      duration={TOAST_DURATION_MS}
      richColors
      closeButton
      containerAriaLabel={t('toasts.region')}
      toastOptions={{ closeButtonAriaLabel: t('toasts.close') }}
    />
  );
}

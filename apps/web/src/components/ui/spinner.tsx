import { Loader2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';

export function Spinner({ className = 'size-5' }: { className?: string }) {
  return <Loader2 className={`animate-spin ${className}`} aria-hidden />;
}

/** In-place loading state for a whole page (never a blank screen). */
export function PageSpinner() {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-[50vh] items-center justify-center text-zinc-500" role="status">
      <Spinner className="size-8" />
      <span className="sr-only">{t('loading')}</span>
    </div>
  );
}

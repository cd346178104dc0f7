import { Link } from '@tanstack/react-router';
import { Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button, buttonClass } from '../../../components/ui/button.tsx';

/** The list's title, and Create (visitors are asked to sign in first). */
export function ListHeader({ signedIn, onSignIn }: { signedIn: boolean; onSignIn: () => void }) {
  const { t } = useTranslation('templates');
  return (
    <header className="flex flex-wrap items-end justify-between gap-4">
      <div className="max-w-3xl">
        <h1 className="text-3xl font-semibold tracking-tight text-zinc-900">{t('list.title')}</h1>
        <p className="mt-2 text-zinc-600">{t('list.subtitle')}</p>
      </div>
      {signedIn ? (
        <Link to="/template/create" className={buttonClass('primary')} data-testid="create-template">
          <Plus className="size-4" aria-hidden />
          {t('list.create')}
        </Link>
      ) : (
        <Button onClick={onSignIn} data-testid="create-template">
          <Plus className="size-4" aria-hidden />
          {t('list.create')}
        </Button>
      )}
    </header>
  );
}

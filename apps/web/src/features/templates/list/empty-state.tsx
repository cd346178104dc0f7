import { Link } from '@tanstack/react-router';
import { Globe, LayoutTemplate, Plus } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import type { TemplateTab } from '../template-api.ts';

/** An empty tab (or search) says what to do next: browse the public templates, or create one. */
export function EmptyState({ tab, searching, onBrowsePublic }: { tab: TemplateTab; searching: boolean; onBrowsePublic: () => void }) {
  const { t } = useTranslation('templates');
  const key = searching ? 'search' : tab;
  return (
    <div
      className="flex flex-col items-center rounded-xl border border-dashed border-zinc-300 bg-white px-6 py-14 text-center"
      data-testid="empty-state"
    >
      <LayoutTemplate className="size-10 text-zinc-400" aria-hidden />
      <h2 className="mt-4 text-lg font-semibold text-zinc-900">{t(`empty.${key}.title`)}</h2>
      <p className="mt-2 max-w-md text-sm text-zinc-600">{t(`empty.${key}.body`)}</p>
      {!searching && (
        <div className="mt-6 flex flex-wrap justify-center gap-2">
          {tab !== 'public' && (
            <Button variant="secondary" onClick={onBrowsePublic}>
              <Globe className="size-4" aria-hidden />
              {t('empty.browsePublic')}
            </Button>
          )}
          {tab !== 'favorites' && (
            <Link to="/template/create" className={buttonClass('primary')}>
              <Plus className="size-4" aria-hidden />
              {t('list.create')}
            </Link>
          )}
        </div>
      )}
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { useMessageText } from '../../../i18n/use-message.ts';
import { TemplateCard, TemplateCardSkeleton } from '../template-card.tsx';
import { EmptyState } from './empty-state.tsx';
import type { TemplateListState } from './use-template-list-page.ts';

/** The chosen tab's templates: skeletons while loading, the error with a retry, the empty state, or the cards and pages. */
export function TemplateResults({ page }: { page: TemplateListState }) {
  const { t } = useTranslation('templates');
  const { params, list } = page;
  return (
    <section id="template-results" role="tabpanel" aria-label={t(`tabs.${params.tab}`)} className="mt-6" aria-busy={list.isFetching}>
      <ResultsBody page={page} />
    </section>
  );
}

function ResultsBody({ page }: { page: TemplateListState }) {
  const { t } = useTranslation('templates');
  const message = useMessageText();
  const { params, list, templates } = page;
  // The prerendered page shows this until the visitor's session is known and the list has arrived, so it has the
  // list's own shape: the count's line, then two full rows of cards at every width (the first screen of a
  // list never shorter than the starters), and nothing above or beside it moves when the cards replace it.
  if (list.isPending) {
    return (
      <div data-testid="template-skeleton">
        <div className="mb-3 h-4 w-28 animate-pulse rounded bg-zinc-100" aria-hidden />
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {['a', 'b', 'c', 'd', 'e', 'f'].map((key) => (
            <TemplateCardSkeleton key={key} />
          ))}
        </div>
      </div>
    );
  }
  if (list.isError) {
    return (
      <div className="rounded-xl border border-red-200 bg-red-50 p-6 text-sm text-red-800" role="alert">
        <p>{message(list.error)}</p>
        <Button variant="secondary" className="mt-3" onClick={() => void list.refetch()}>
          {t('list.retry')}
        </Button>
      </div>
    );
  }
  if (templates.length === 0) {
    return (
      <EmptyState tab={params.tab} searching={Boolean(params.q)} onBrowsePublic={() => page.go({ tab: 'public', q: undefined, page: 1 })} />
    );
  }
  return (
    <>
      <p className="mb-3 text-xs text-zinc-600" data-testid="result-count">
        {t('list.count', { count: page.total })}
      </p>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {templates.map((template) => (
          <TemplateCard key={template.id} template={template} actions={page.actions} />
        ))}
      </div>
      {page.pages > 1 && <ListPagination page={params.page} pages={page.pages} onGo={(to) => page.go({ page: to })} />}
    </>
  );
}

/** Previous and next, with where the user is (the public tab only has pages). */
function ListPagination({ page, pages, onGo }: { page: number; pages: number; onGo: (page: number) => void }) {
  const { t } = useTranslation('templates');
  return (
    <nav className="mt-6 flex items-center justify-center gap-3" aria-label={t('list.pagination')}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onGo(page - 1)}>
        {t('list.previous')}
      </Button>
      <span className="text-sm text-zinc-700">{t('list.pageOf', { page, pages })}</span>
      <Button variant="secondary" disabled={page >= pages} onClick={() => onGo(page + 1)}>
        {t('list.next')}
      </Button>
    </nav>
  );
}

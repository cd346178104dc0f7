import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Globe, Heart, LayoutTemplate, Plus, Search, User } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { SignInRequiredDialog } from '../../components/sign-in-required-dialog.tsx';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/form-field.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { useSession } from '../../lib/session/session.context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import {
  LIST_PAGE_SIZE,
  type ListParams,
  TEMPLATE_SORTS,
  TEMPLATE_TABS,
  type TemplateSort,
  type TemplateTab,
  type TemplateView,
  useStarTemplate,
  useTemplateAction,
  useTemplateList,
} from './template-api.ts';
import { TemplateCard, TemplateCardSkeleton } from './template-card.tsx';

const TAB_ICONS = { mine: User, public: Globe, favorites: Heart } as const;

interface ListSearch {
  tab?: string;
  q?: string;
  sort?: string;
  page?: number | string;
}

/** The URL's list options, read defensively (anything unknown falls back to the defaults). */
export function readListSearch(search: ListSearch, signedIn: boolean): ListParams {
  const tab = (TEMPLATE_TABS as readonly string[]).includes(search.tab ?? '') ? (search.tab as TemplateTab) : signedIn ? 'mine' : 'public';
  const sort = (TEMPLATE_SORTS as readonly string[]).includes(search.sort ?? '') ? (search.sort as TemplateSort) : 'date';
  const page = Math.max(1, Math.min(100_000, Math.trunc(Number(search.page) || 1)));
  return { tab: signedIn || tab === 'public' ? tab : 'public', q: typeof search.q === 'string' ? search.q : undefined, sort, page };
}

/**
 * docs/spec/screens.md templates list: tabs My Templates, Public and Favorites; search; sort by date or stars; an
 * apply button. Visitors see Public; the other tabs ask them to sign in. Options live in the URL.
 */
export function TemplateListPage() {
  const { t } = useTranslation('templates');
  const message = useMessageText();
  usePageTitle(t('list.title'));
  const session = useSession();
  const signedIn = session.status === 'signedIn';
  const navigate = useNavigate();
  const search = useSearch({ strict: false }) as ListSearch;
  const params = readListSearch(search, signedIn);
  const [draft, setDraft] = useState({ q: params.q ?? '', sort: params.sort });
  const [signInOpen, setSignInOpen] = useState(false);
  const [toDelete, setToDelete] = useState<TemplateView | null>(null);
  const [busyId, setBusyId] = useState<string>();
  useEffect(() => setDraft({ q: params.q ?? '', sort: params.sort }), [params.q, params.sort]);

  const list = useTemplateList(params, session.status !== 'loading', signedIn);
  const star = useStarTemplate();
  const duplicate = useTemplateAction('duplicate');
  const remove = useTemplateAction('delete');

  const go = (next: Partial<ListParams>) => {
    const merged = { ...params, ...next };
    void navigate({
      to: '.',
      search: {
        tab: merged.tab,
        ...(merged.q ? { q: merged.q } : {}),
        ...(merged.sort !== 'date' ? { sort: merged.sort } : {}),
        ...(merged.page > 1 ? { page: merged.page } : {}),
      } as never,
      replace: true,
    });
  };

  const chooseTab = (tab: TemplateTab) => {
    if (tab !== 'public' && !signedIn) {
      setSignInOpen(true);
      return;
    }
    go({ tab, page: 1 });
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    go({ q: draft.q.trim() || undefined, sort: draft.sort, page: 1 });
  };

  const needsAccount = (run: () => void) => (signedIn ? run() : setSignInOpen(true));
  const track = async (id: string, work: () => Promise<unknown>) => {
    setBusyId(id);
    try {
      await work();
    } catch (error) {
      toast.error(message(error));
    } finally {
      setBusyId(undefined);
    }
  };

  const actions = {
    busyId,
    onStar: (template: TemplateView) =>
      needsAccount(() =>
        track(template.id, async () => {
          await star.mutateAsync({ id: template.id, starred: !template.isStarred });
          toast.success(template.isStarred ? t('toasts.unstarred') : t('toasts.starred'));
        }),
      ),
    onDuplicate: (template: TemplateView) =>
      needsAccount(() =>
        track(template.id, async () => {
          const copy = await duplicate.mutateAsync(template.id);
          toast.success(t('toasts.duplicated'));
          if (copy) void navigate({ to: '/template/edit/$id', params: { id: copy.id } });
        }),
      ),
    onDelete: (template: TemplateView) => setToDelete(template),
  };

  const confirmDelete = async () => {
    if (!toDelete) return;
    const target = toDelete;
    await track(target.id, async () => {
      await remove.mutateAsync(target.id);
      toast.success(t('toasts.deleted'));
    });
    setToDelete(null);
  };

  const templates = list.data?.data ?? [];
  const total = list.data?.pagination.total ?? 0;
  const pages = params.tab === 'public' ? Math.max(1, Math.ceil(total / LIST_PAGE_SIZE)) : 1;

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
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
          <Button onClick={() => setSignInOpen(true)} data-testid="create-template">
            <Plus className="size-4" aria-hidden />
            {t('list.create')}
          </Button>
        )}
      </header>

      <div className="mt-8 flex flex-col gap-4 border-b border-zinc-200 pb-4 lg:flex-row lg:items-end lg:justify-between">
        <div role="tablist" aria-label={t('list.tabsLabel')} className="flex gap-1 overflow-x-auto">
          {TEMPLATE_TABS.map((tab) => {
            const Icon = TAB_ICONS[tab];
            const active = params.tab === tab;
            return (
              <button
                key={tab}
                type="button"
                role="tab"
                aria-selected={active}
                aria-controls="template-results"
                onClick={() => chooseTab(tab)}
                className={`inline-flex shrink-0 items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium ${
                  active ? 'bg-accent-50 text-accent-800' : 'text-zinc-700 hover:bg-zinc-100'
                }`}
                data-testid={`tab-${tab}`}
              >
                <Icon className="size-4" aria-hidden />
                {t(`tabs.${tab}`)}
              </button>
            );
          })}
        </div>
        <form onSubmit={apply} className="flex flex-wrap items-end gap-2" aria-label={t('list.searchLabel')}>
          <div className="relative w-full sm:w-64">
            <label htmlFor="template-search" className="sr-only">
              {t('list.search')}
            </label>
            <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-zinc-500" aria-hidden />
            <input
              id="template-search"
              type="search"
              name="q"
              value={draft.q}
              maxLength={100}
              onChange={(event) => setDraft({ ...draft, q: event.target.value })}
              placeholder={t('list.searchPlaceholder')}
              className={`${inputClass} pl-9`}
            />
          </div>
          <div>
            <label htmlFor="template-sort" className="sr-only">
              {t('list.sort')}
            </label>
            <select
              id="template-sort"
              name="sort"
              value={draft.sort}
              onChange={(event) => setDraft({ ...draft, sort: event.target.value as TemplateSort })}
              className={inputClass}
            >
              {TEMPLATE_SORTS.map((sort) => (
                <option key={sort} value={sort}>
                  {t(`sort.${sort}`)}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" variant="secondary" data-testid="apply-filters">
            {t('list.apply')}
          </Button>
        </form>
      </div>

      <section id="template-results" role="tabpanel" aria-label={t(`tabs.${params.tab}`)} className="mt-6" aria-busy={list.isFetching}>
        {list.isPending ? (
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {['a', 'b', 'c', 'd'].map((key) => (
              <TemplateCardSkeleton key={key} />
            ))}
          </div>
        ) : list.isError ? (
          <div className="rounded-xl border border-red-200 bg-red-50 p-6 text-sm text-red-800" role="alert">
            <p>{message(list.error)}</p>
            <Button variant="secondary" className="mt-3" onClick={() => void list.refetch()}>
              {t('list.retry')}
            </Button>
          </div>
        ) : templates.length === 0 ? (
          <EmptyState tab={params.tab} searching={Boolean(params.q)} onBrowsePublic={() => go({ tab: 'public', q: undefined, page: 1 })} />
        ) : (
          <>
            <p className="mb-3 text-xs text-zinc-600" data-testid="result-count">
              {t('list.count', { count: total })}
            </p>
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {templates.map((template) => (
                <TemplateCard key={template.id} template={template} actions={actions} />
              ))}
            </div>
            {pages > 1 && (
              <nav className="mt-6 flex items-center justify-center gap-3" aria-label={t('list.pagination')}>
                <Button variant="secondary" disabled={params.page <= 1} onClick={() => go({ page: params.page - 1 })}>
                  {t('list.previous')}
                </Button>
                <span className="text-sm text-zinc-700">{t('list.pageOf', { page: params.page, pages })}</span>
                <Button variant="secondary" disabled={params.page >= pages} onClick={() => go({ page: params.page + 1 })}>
                  {t('list.next')}
                </Button>
              </nav>
            )}
          </>
        )}
      </section>

      <SignInRequiredDialog open={signInOpen} onOpenChange={setSignInOpen} />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={t('delete.title')}
        confirmLabel={t('delete.confirm')}
        onConfirm={() => void confirmDelete()}
        busy={remove.isPending}
      >
        {t('delete.body', { name: toDelete?.name ?? '' })}
      </ConfirmDialog>
    </div>
  );
}

function EmptyState({ tab, searching, onBrowsePublic }: { tab: TemplateTab; searching: boolean; onBrowsePublic: () => void }) {
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

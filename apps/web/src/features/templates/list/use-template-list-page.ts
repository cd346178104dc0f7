import { useNavigate, useSearch } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useMessageText } from '../../../i18n/use-message.ts';
import { useSession } from '../../../lib/session/session.context.tsx';
import {
  LIST_PAGE_SIZE,
  type ListParams,
  type TemplateTab,
  type TemplateView,
  useStarTemplate,
  useTemplateAction,
  useTemplateList,
} from '../template-api.ts';
import type { CardActions } from '../template-card.tsx';
import { type ListSearch, readListSearch, writeListSearch } from './list-search.ts';

/**
 * The list page's state: its options in the URL (tab, search, sort, page), the search form's draft until
 * applied, the list itself, and the cards' actions (those that change an account ask visitors to sign in;
 * deleting asks first).
 */
export function useTemplateListPage() {
  const { t } = useTranslation('templates');
  const message = useMessageText();
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
    void navigate({ to: '.', search: writeListSearch({ ...params, ...next }) as never, replace: true });
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

  const actions: CardActions = {
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

  const total = list.data?.pagination.total ?? 0;
  return {
    signedIn,
    params,
    draft,
    setDraft,
    go,
    chooseTab,
    apply,
    list,
    templates: list.data?.data ?? [],
    total,
    pages: params.tab === 'public' ? Math.max(1, Math.ceil(total / LIST_PAGE_SIZE)) : 1,
    actions,
    signInOpen,
    setSignInOpen,
    toDelete,
    setToDelete,
    confirmDelete,
    deleting: remove.isPending,
  };
}

export type TemplateListState = ReturnType<typeof useTemplateListPage>;

import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { SignInRequiredDialog } from '../../components/sign-in-required-dialog.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { ListFilters } from './list/list-filters.tsx';
import { ListHeader } from './list/list-header.tsx';
import { ListTabs } from './list/list-tabs.tsx';
import { TemplateResults } from './list/template-results.tsx';
import { useTemplateListPage } from './list/use-template-list-page.ts';

/**
 * docs/spec/screens.md templates list: tabs My Templates, Public and Favorites; search; sort by date or stars; an
 * apply button. Visitors see Public; the other tabs ask them to sign in. Options live in the URL.
 */
export function TemplateListPage() {
  const { t } = useTranslation('templates');
  usePageTitle(t('list.title'));
  const page = useTemplateListPage();
  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <ListHeader signedIn={page.signedIn} onSignIn={() => page.setSignInOpen(true)} />
      <div className="mt-8 flex flex-col gap-4 border-b border-zinc-200 pb-4 lg:flex-row lg:items-end lg:justify-between">
        <ListTabs active={page.params.tab} onChoose={page.chooseTab} />
        <ListFilters page={page} />
      </div>
      <TemplateResults page={page} />
      <SignInRequiredDialog open={page.signInOpen} onOpenChange={page.setSignInOpen} />
      <ConfirmDialog
        open={page.toDelete !== null}
        onOpenChange={(open) => !open && page.setToDelete(null)}
        title={t('delete.title')}
        confirmLabel={t('delete.confirm')}
        onConfirm={() => void page.confirmDelete()}
        busy={page.deleting}
      >
        {t('delete.body', { name: page.toDelete?.name ?? '' })}
      </ConfirmDialog>
    </div>
  );
}

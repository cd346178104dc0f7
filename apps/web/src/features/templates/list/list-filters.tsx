import { Search } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { FieldLabel, inputClass, OptionList } from '../../../components/ui/form-field.tsx';
import { TEMPLATE_SORTS, type TemplateSort } from '../template-api.ts';
import type { TemplateListState } from './use-template-list-page.ts';

/** Search and sort, applied together by the Apply button. */
export function ListFilters({ page }: { page: TemplateListState }) {
  const { t } = useTranslation('templates');
  const { draft, setDraft } = page;
  return (
    <form onSubmit={page.apply} className="flex flex-wrap items-end gap-2" aria-label={t('list.searchLabel')}>
      <div className="relative w-full sm:w-64">
        <FieldLabel htmlFor="template-search" text={t('list.search')} srOnly />
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
        <FieldLabel htmlFor="template-sort" text={t('list.sort')} srOnly />
        <select
          id="template-sort"
          name="sort"
          value={draft.sort}
          onChange={(event) => setDraft({ ...draft, sort: event.target.value as TemplateSort })}
          className={inputClass}
        >
          <OptionList values={TEMPLATE_SORTS} label={(sort) => t(`sort.${sort}`)} />
        </select>
      </div>
      <Button type="submit" variant="secondary" data-testid="apply-filters">
        {t('list.apply')}
      </Button>
    </form>
  );
}

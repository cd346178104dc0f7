import { type ListParams, TEMPLATE_SORTS, TEMPLATE_TABS, type TemplateSort, type TemplateTab } from '../template-api.ts';

/** The list's options as they stand in the URL. */
export interface ListSearch {
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

/** The list options as the URL writes them: the tab always, the rest only when not the default. */
export function writeListSearch(params: ListParams): ListSearch {
  return {
    tab: params.tab,
    ...(params.q ? { q: params.q } : {}),
    ...(params.sort !== 'date' ? { sort: params.sort } : {}),
    ...(params.page > 1 ? { page: params.page } : {}),
  };
}

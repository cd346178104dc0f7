import { type TemplateInput, TemplateLimits, type TemplateListResponse, TemplateRoutes, type TemplateView } from '@render/contracts';
import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiFetch, apiJson } from '../../lib/api-client.ts';
import { callRoute } from '../../lib/call-route.ts';
import { type RenderedImage, renderedImage } from '../../lib/render-api.ts';

export type { TemplateView };

/** The list page's tabs: yours, everyone's public ones, the ones you starred. */
export const TEMPLATE_TABS = ['mine', 'public', 'favorites'] as const;
export type TemplateTab = (typeof TEMPLATE_TABS)[number];
export const TEMPLATE_SORTS = ['date', 'stars'] as const;
export type TemplateSort = (typeof TEMPLATE_SORTS)[number];

export interface ListParams {
  tab: TemplateTab;
  q?: string;
  sort: TemplateSort;
  page: number;
}

export const LIST_PAGE_SIZE = 24;
/** Own and starred lists have no server-side sort: one full page is fetched and sorted here. */
const CLIENT_SORTED_PAGE_SIZE = TemplateLimits.pageSizeMax;

const TAB_PATHS: Record<TemplateTab, string> = {
  mine: TemplateRoutes.listOwn.url,
  public: TemplateRoutes.listPublic.url,
  favorites: TemplateRoutes.listStarred.url,
};

/** The call a list view makes (docs/spec/calls.md: GET /api/template/user, /public?sortBy=…, /starred). */
export function listRequestPath({ tab, q, sort, page }: ListParams): string {
  const params = new URLSearchParams();
  const search = q?.trim();
  if (search) params.set('q', search.slice(0, TemplateLimits.searchMax));
  if (tab === 'public') {
    params.set('sortBy', sort);
    params.set('page', String(page));
    params.set('pageSize', String(LIST_PAGE_SIZE));
  } else {
    params.set('pageSize', String(CLIENT_SORTED_PAGE_SIZE));
  }
  return `${TAB_PATHS[tab]}?${params.toString()}`;
}

/** Newest first, or most starred first (ties: newest first), as the public list orders on the server. */
export function sortTemplates(templates: TemplateView[], sort: TemplateSort): TemplateView[] {
  const byDate = (a: TemplateView, b: TemplateView) => b.createdAt.localeCompare(a.createdAt);
  return [...templates].sort(sort === 'stars' ? (a, b) => b.starCount - a.starCount || byDate(a, b) : byDate);
}

export const templateKeys = {
  all: ['templates'] as const,
  list: (params: ListParams, signedIn: boolean) => ['templates', 'list', params, signedIn] as const,
  one: (id: string) => ['templates', 'one', id] as const,
};

async function fetchList(params: ListParams): Promise<TemplateListResponse> {
  const answer = await apiJson<TemplateListResponse>(listRequestPath(params));
  // docs/spec/calls.md: the list is in a data array (empty if not an array).
  const data = Array.isArray(answer?.data) ? answer.data : [];
  const pagination = answer?.pagination ?? { page: 1, pageSize: data.length, total: data.length };
  return { data: params.tab === 'public' ? data : sortTemplates(data, params.sort), pagination };
}

export function useTemplateList(params: ListParams, enabled: boolean, signedIn: boolean) {
  return useQuery({
    queryKey: templateKeys.list(params, signedIn),
    queryFn: () => fetchList(params),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useTemplate(id: string, enabled = true) {
  return useQuery({
    queryKey: templateKeys.one(id),
    queryFn: async () => (await callRoute(TemplateRoutes.get, { params: { id } })).data,
    enabled,
    // A 404 or 403 will not change by asking again.
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
  });
}

const refresh = (client: QueryClient, template?: TemplateView) => {
  if (template) client.setQueryData(templateKeys.one(template.id), template);
  return client.invalidateQueries({ queryKey: ['templates', 'list'] });
};

export function useSaveTemplate(id?: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: TemplateInput) =>
      (id
        ? await callRoute(TemplateRoutes.update, { params: { id }, body: input })
        : await callRoute(TemplateRoutes.create, { body: input })
      ).data,
    onSuccess: (template) => refresh(client, template),
  });
}

export function useTemplateAction(action: 'publish' | 'duplicate' | 'delete') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      if (action === 'delete') {
        await callRoute(TemplateRoutes.delete, { params: { id } });
        client.removeQueries({ queryKey: templateKeys.one(id) });
        return undefined;
      }
      const answer =
        action === 'publish'
          ? await callRoute(TemplateRoutes.publish, { params: { id } })
          : await callRoute(TemplateRoutes.duplicate, { params: { id } });
      return answer.data;
    },
    onSuccess: (template) => refresh(client, template),
  });
}

export function useStarTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, starred }: { id: string; starred: boolean }) =>
      (await callRoute(starred ? TemplateRoutes.star : TemplateRoutes.unstar, { params: { id } })).data,
    onSuccess: (_, { id }) => {
      void client.invalidateQueries({ queryKey: templateKeys.one(id) });
      return client.invalidateQueries({ queryKey: ['templates', 'list'] });
    },
  });
}

export interface GenerateCall {
  templateId: string;
  variables?: Record<string, string | number>;
  format: string;
  quality?: number;
  signal?: AbortSignal;
}

/** POST /api/template/generate as the signed-in user, asking for JSON (base64 and metadata in one answer). */
export async function generateTemplateImage(call: GenerateCall): Promise<RenderedImage> {
  const started = performance.now();
  const response = await apiFetch('/api/template/generate', {
    body: {
      templateId: call.templateId,
      ...(call.variables ? { variables: call.variables } : {}),
      format: call.format,
      ...(call.quality === undefined ? {} : { quality: call.quality }),
      outputType: 'json',
    },
    signal: call.signal,
  });
  return renderedImage(response, started);
}

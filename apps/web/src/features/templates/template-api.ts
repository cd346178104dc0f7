import {
  type TemplateGenerateBody,
  type TemplateInput,
  TemplateLimits,
  type TemplateListResponse,
  type TemplateView,
} from '@render/contracts';
import { RenderHeads, TemplateHeads } from '@render/contracts/route-heads';
import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api-client.ts';
import { callRoute, fetchRoute, routeUrl } from '../../lib/call-route.ts';
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

const TAB_ROUTES = { mine: TemplateHeads.listOwn, public: TemplateHeads.listPublic, favorites: TemplateHeads.listStarred };

/** The query a list view sends (docs/spec/calls.md: GET /api/template/user, /public?sortBy=…, /starred). */
function listQuery({ tab, q, sort, page }: ListParams) {
  const search = q?.trim();
  const query = { q: search ? search.slice(0, TemplateLimits.searchMax) : undefined };
  return tab === 'public' ? { ...query, sortBy: sort, page, pageSize: LIST_PAGE_SIZE } : { ...query, pageSize: CLIENT_SORTED_PAGE_SIZE };
}

/** The path of the call a list view makes. */
export const listRequestPath = (params: ListParams): string => routeUrl(TAB_ROUTES[params.tab], { query: listQuery(params) });

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
  const answer = await callRoute(TAB_ROUTES[params.tab], { query: listQuery(params) });
  // docs/spec/calls.md: the list is in a data array (empty if not an array).
  const data = Array.isArray(answer?.data) ? answer.data : [];
  const pagination = answer?.pagination ?? { page: 1, pageSize: data.length, total: data.length };
  return { data: params.tab === 'public' ? data : sortTemplates(data, params.sort), pagination };
}

/**
 * A visitor's list asked for before the page is live (`startVisitorList`), kept for the list query's first run.
 * Only the first run may take it, whatever it asks for: any later run wants a fresh answer.
 */
let early: { key: string; answer: Promise<TemplateListResponse> } | undefined;

/**
 * The prerendered list page, on its first load by a visitor (no session stored): the list a visitor sees is asked
 * for while the page's code loads, instead of once the page is live and the session known, so its cards (the
 * page's largest paint) come sooner (features/templates/list/early-list.ts).
 */
export function startVisitorList(params: ListParams) {
  const answer = fetchList(params);
  // Taken by the query, which reports a failure; one left untaken must not be an unhandled rejection.
  answer.catch(() => {});
  early = { key: JSON.stringify(templateKeys.list(params, false)), answer };
}

function takeEarly(key: readonly unknown[]): Promise<TemplateListResponse> | undefined {
  const taken = early;
  early = undefined;
  return taken?.key === JSON.stringify(key) ? taken.answer : undefined;
}

export function useTemplateList(params: ListParams, enabled: boolean, signedIn: boolean) {
  const queryKey = templateKeys.list(params, signedIn);
  return useQuery({
    queryKey,
    queryFn: () => takeEarly(queryKey) ?? fetchList(params),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useTemplate(id: string, enabled = true) {
  return useQuery({
    queryKey: templateKeys.one(id),
    queryFn: async () => (await callRoute(TemplateHeads.get, { params: { id } })).data,
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
      (id ? await callRoute(TemplateHeads.update, { params: { id }, body: input }) : await callRoute(TemplateHeads.create, { body: input }))
        .data,
    onSuccess: (template) => refresh(client, template),
  });
}

export function useTemplateAction(action: 'publish' | 'duplicate' | 'delete') {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      if (action === 'delete') {
        await callRoute(TemplateHeads.delete, { params: { id } });
        client.removeQueries({ queryKey: templateKeys.one(id) });
        return undefined;
      }
      const answer =
        action === 'publish'
          ? await callRoute(TemplateHeads.publish, { params: { id } })
          : await callRoute(TemplateHeads.duplicate, { params: { id } });
      return answer.data;
    },
    onSuccess: (template) => refresh(client, template),
  });
}

export function useStarTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, starred }: { id: string; starred: boolean }) =>
      (await callRoute(starred ? TemplateHeads.star : TemplateHeads.unstar, { params: { id } })).data,
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

/** A template rendered as the signed-in user, asking for JSON (base64 and metadata in one answer). */
export async function generateTemplateImage(call: GenerateCall): Promise<RenderedImage> {
  const started = performance.now();
  const body = {
    templateId: call.templateId,
    ...(call.variables ? { variables: call.variables } : {}),
    format: call.format as TemplateGenerateBody['format'],
    ...(call.quality === undefined ? {} : { quality: call.quality }),
    outputType: 'json' as const,
  };
  // quality and optimize have defaults the gateway fills in: the body's static type lists them as required.
  const response = await fetchRoute(RenderHeads.template, { body: body as TemplateGenerateBody }, { signal: call.signal });
  return renderedImage(response, started);
}

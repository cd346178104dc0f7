// The public template calls, each declared once: the gateway validates and documents with these and passes
// the call on, and the templates service registers the same schema to serve it.
import { type HttpMethod, publicRoute, type RouteSchema } from './route.ts';
import {
  PublicTemplateListQuery,
  StarResponse,
  SuccessResponse,
  TemplateIdParams,
  TemplateInput,
  TemplateListQuery,
  TemplateListResponse,
  TemplateResponse,
  templateErrorResponses,
} from './template.ts';

/** Who may make a call: a signed-in user only, or anyone (a visitor then sees only what is public). */
export type TemplateAccess = 'signedIn' | 'anyone';

const templateRoute = <M extends HttpMethod, S extends RouteSchema>(
  method: M,
  url: string,
  access: TemplateAccess,
  schema: S,
  options: { idempotent?: true } = {},
) => publicRoute(method, url, access, { tags: ['templates'], ...schema }, options);

const list = { querystring: TemplateListQuery, response: { 200: TemplateListResponse, ...templateErrorResponses } };
const one = { params: TemplateIdParams, response: { 200: TemplateResponse, ...templateErrorResponses } };
const created = { 201: TemplateResponse, ...templateErrorResponses };

export const TemplateRoutes = {
  list: templateRoute('GET', '/api/template', 'signedIn', { summary: 'Your templates and the public ones', ...list }),
  listOwn: templateRoute('GET', '/api/template/user', 'signedIn', { summary: 'Your own templates', ...list }),
  listStarred: templateRoute('GET', '/api/template/starred', 'signedIn', { summary: 'Templates you starred', ...list }),
  // Visitors may browse the public list; every other call needs a signed-in user.
  listPublic: templateRoute('GET', '/api/template/public', 'anyone', {
    summary: 'Public templates (sortBy=date: newest first; sortBy=stars: most starred first)',
    ...list,
    querystring: PublicTemplateListQuery,
  }),
  // Creating a template (or a copy) is safe to retry with an Idempotency-Key.
  create: templateRoute(
    'POST',
    '/api/template',
    'signedIn',
    { summary: 'Create a private template', body: TemplateInput, response: created },
    { idempotent: true },
  ),
  get: templateRoute('GET', '/api/template/:id', 'signedIn', { summary: 'One template (your own or a public one)', ...one }),
  update: templateRoute('PUT', '/api/template/:id', 'signedIn', {
    summary: 'Replace a private template you own',
    ...one,
    body: TemplateInput,
  }),
  delete: templateRoute('DELETE', '/api/template/:id', 'signedIn', {
    summary: 'Delete a template you own',
    params: TemplateIdParams,
    response: { 200: SuccessResponse, ...templateErrorResponses },
  }),
  publish: templateRoute('POST', '/api/template/:id/publish', 'signedIn', {
    summary: 'Make a template you own public (irreversible)',
    ...one,
  }),
  duplicate: templateRoute(
    'POST',
    '/api/template/:id/duplicate',
    'signedIn',
    { summary: 'Copy a template you can see into a new private template of yours', params: TemplateIdParams, response: created },
    { idempotent: true },
  ),
  star: templateRoute('POST', '/api/template/:id/star', 'signedIn', {
    summary: 'Star a template (idempotent)',
    params: TemplateIdParams,
    response: { 200: StarResponse, ...templateErrorResponses },
  }),
  unstar: templateRoute('DELETE', '/api/template/:id/star', 'signedIn', {
    summary: 'Remove your star (idempotent)',
    params: TemplateIdParams,
    response: { 200: StarResponse, ...templateErrorResponses },
  }),
};

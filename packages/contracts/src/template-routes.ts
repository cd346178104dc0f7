// The public template calls, each declared once: the gateway validates and documents with these and passes
// the call on, and the templates service registers the same schema to serve it.
import { publicRouteOf, type RouteHead, type RouteSchema } from './route.ts';
import { TemplateHeads } from './route-heads.ts';
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

const templateRoute = <H extends RouteHead, S extends RouteSchema>(head: H, schema: S) =>
  publicRouteOf(head, { tags: ['templates'], ...schema });

const list = { querystring: TemplateListQuery, response: { 200: TemplateListResponse, ...templateErrorResponses } };
const one = { params: TemplateIdParams, response: { 200: TemplateResponse, ...templateErrorResponses } };
const created = { 201: TemplateResponse, ...templateErrorResponses };

export const TemplateRoutes = {
  list: templateRoute(TemplateHeads.list, { summary: 'Your templates and the public ones', ...list }),
  listOwn: templateRoute(TemplateHeads.listOwn, { summary: 'Your own templates', ...list }),
  listStarred: templateRoute(TemplateHeads.listStarred, { summary: 'Templates you starred', ...list }),
  // Visitors may browse the public list; every other call needs a signed-in user.
  listPublic: templateRoute(TemplateHeads.listPublic, {
    summary: 'Public templates (sortBy=date: newest first; sortBy=stars: most starred first)',
    ...list,
    querystring: PublicTemplateListQuery,
  }),
  // Creating a template (or a copy) is safe to retry with an Idempotency-Key (their heads say so).
  create: templateRoute(TemplateHeads.create, { summary: 'Create a private template', body: TemplateInput, response: created }),
  get: templateRoute(TemplateHeads.get, { summary: 'One template (your own or a public one)', ...one }),
  update: templateRoute(TemplateHeads.update, {
    summary: 'Replace a private template you own',
    ...one,
    body: TemplateInput,
  }),
  delete: templateRoute(TemplateHeads.delete, {
    summary: 'Delete a template you own',
    params: TemplateIdParams,
    response: { 200: SuccessResponse, ...templateErrorResponses },
  }),
  publish: templateRoute(TemplateHeads.publish, {
    summary: 'Make a template you own public (irreversible)',
    ...one,
  }),
  duplicate: templateRoute(TemplateHeads.duplicate, {
    summary: 'Copy a template you can see into a new private template of yours',
    params: TemplateIdParams,
    response: created,
  }),
  star: templateRoute(TemplateHeads.star, {
    summary: 'Star a template (idempotent)',
    params: TemplateIdParams,
    response: { 200: StarResponse, ...templateErrorResponses },
  }),
  unstar: templateRoute(TemplateHeads.unstar, {
    summary: 'Remove your star (idempotent)',
    params: TemplateIdParams,
    response: { 200: StarResponse, ...templateErrorResponses },
  }),
};

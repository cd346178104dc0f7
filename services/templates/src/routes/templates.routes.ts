import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  AppError,
  type PublicRoute,
  type RouteSchema,
  type TemplateInput,
  TemplateLimits,
  type TemplateListQuery,
  TemplateMessages,
  TemplateRoutes,
} from '@render/contracts';
import type { TemplateContent, TemplateListScope } from '@render/db';
import { type AccessGuards, type ContractHandler, serveRoute } from '@render/fastify-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkVariables, sanitizeTemplateSvg } from '../lib/svg-template.ts';
import { toTemplateView } from '../lib/template-view.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const templateNotFound = () => new AppError('NOT_FOUND', TemplateMessages.notFound);
const notPermitted = () => new AppError('FORBIDDEN', TemplateMessages.notPermitted);

/** A malformed id names no template: the same 404 as a missing one, never a database error. */
export function templateId(raw: string): string {
  if (!UUID.test(raw)) throw templateNotFound();
  return raw.toLowerCase();
}

/** What is stored for a create or update: sanitised SVG whose bindings match the declared variables. */
function content(input: TemplateInput): TemplateContent {
  const name = input.name.trim();
  if (name.length < TemplateLimits.nameMin)
    throw new AppError('VALIDATION_ERROR', `Name must be at least ${TemplateLimits.nameMin} characters`);
  const { svg, bindings } = sanitizeTemplateSvg(input.svg);
  const variables = checkVariables(input.variables ?? [], bindings);
  return { name, width: input.width, height: input.height, svg, variables };
}

/** What the contracts' access rules mean here: the gateway's caller, once checked (`requireViewer`), after validation. */
export const templateGuards = (app: FastifyInstance): AccessGuards => ({
  hook: 'preHandler',
  rules: { signedIn: app.requireViewer, anyone: null },
});

const viewerIdOf = (request: FastifyRequest) => request.viewer?.userId ?? null;
/** Routes behind `requireViewer` always have one. */
const signedIn = (request: FastifyRequest) => (request.viewer as { userId: string }).userId;

const templatesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { templates } = app.repositories;
  const guards = templateGuards(app);
  const serve = <S extends RouteSchema>(route: PublicRoute<PublicRoute['method'], S>, handler: ContractHandler<S, TypeBoxTypeProvider>) =>
    serveRoute(app, guards, route, handler);

  async function view(id: string, viewerId: string | null) {
    const row = await templates.findVisible(id, viewerId);
    if (!row) throw templateNotFound();
    return { data: toTemplateView(row, viewerId) };
  }

  /** The template, if the viewer owns it: 404 when they cannot see it, 403 when they can but it is not theirs. */
  async function owned(id: string, viewerId: string) {
    const row = await templates.findVisible(id, viewerId);
    if (!row) throw templateNotFound();
    if (row.user_id !== viewerId) throw notPermitted();
    return row;
  }

  async function list(scope: TemplateListScope, request: FastifyRequest, query: TemplateListQuery & { sortBy?: 'date' | 'stars' }) {
    const viewerId = viewerIdOf(request);
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.pageSize ?? TemplateLimits.pageSizeDefault);
    const { rows, total } = await templates.list({
      scope,
      viewerId,
      search: query.q,
      sortBy: query.sortBy ?? 'date',
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return { data: rows.map((row) => toTemplateView(row, viewerId)), pagination: { page, pageSize, total } };
  }

  serve(TemplateRoutes.list, (request) => list('visible', request, request.query));
  serve(TemplateRoutes.listOwn, (request) => list('user', request, request.query));
  serve(TemplateRoutes.listStarred, (request) => list('starred', request, request.query));
  // Visitors may browse the public list (docs/spec/roles.md); everything else needs a signed-in user.
  serve(TemplateRoutes.listPublic, (request) => list('public', request, request.query));

  serve(TemplateRoutes.create, async (request, reply) => {
    const viewerId = signedIn(request);
    const id = await templates.create(viewerId, content(request.body));
    return reply.status(201).send(await view(id, viewerId));
  });

  serve(TemplateRoutes.get, (request) => view(templateId(request.params.id), signedIn(request)));

  serve(TemplateRoutes.update, async (request) => {
    const id = templateId(request.params.id);
    const viewerId = signedIn(request);
    const row = await owned(id, viewerId);
    if (row.is_public) {
      throw new AppError('FORBIDDEN', TemplateMessages.publicFrozen);
    }
    const next = content(request.body);
    // Published or deleted between the check and the write: answer as if it had happened first.
    if (!(await templates.updatePrivate(id, viewerId, next))) {
      await owned(id, viewerId);
      throw new AppError('FORBIDDEN', TemplateMessages.publicFrozen);
    }
    return view(id, viewerId);
  });

  serve(TemplateRoutes.delete, async (request) => {
    const id = templateId(request.params.id);
    const viewerId = signedIn(request);
    await owned(id, viewerId);
    if (!(await templates.delete(id, viewerId))) throw templateNotFound();
    return { success: true as const };
  });

  serve(TemplateRoutes.publish, async (request) => {
    const id = templateId(request.params.id);
    const viewerId = signedIn(request);
    await owned(id, viewerId);
    if (!(await templates.publish(id, viewerId))) throw templateNotFound();
    return view(id, viewerId);
  });

  serve(TemplateRoutes.duplicate, async (request, reply) => {
    const sourceId = templateId(request.params.id);
    const viewerId = signedIn(request);
    const source = await templates.findVisible(sourceId, viewerId);
    if (!source) throw templateNotFound();
    const name = `${source.name} (copy)`.slice(0, TemplateLimits.nameMax);
    const { width, height, svg, variables } = source;
    const id = await templates.create(viewerId, { name, width, height, svg, variables }, source.id);
    return reply.status(201).send(await view(id, viewerId));
  });

  for (const [route, starred] of [
    [TemplateRoutes.star, true],
    [TemplateRoutes.unstar, false],
  ] as const) {
    serve(route, async (request) => {
      const starCount = await templates.setStar(templateId(request.params.id), signedIn(request), starred);
      if (starCount === undefined) throw templateNotFound();
      return { data: { isStarred: starred, starCount } };
    });
  }
};

export default templatesRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdempotencyHeaders, RenderRoutes, type TemplateGenerateBody, type TemplateRenderInput, TemplateRoutes } from '@render/contracts';
import { type AccessGuards, guardFor, PROBLEM_CONTENT_TYPE } from '@render/fastify-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { templatePayload } from '../convert/template-payload.ts';
import { renderRoute } from '../images/image-route.ts';

/**
 * Template calls. CRUD, lists and stars are declared once in the contracts (`TemplateRoutes`): validated
 * here and passed to the templates service for the authenticated user, which serves them with the same
 * schemas. Generation is rendered here, because the gateway owns the render queue and credits.
 */
const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { identity, templatesClient } = app;
  // Visitors may read what is public: their credentials are used when sent, and their absence is not limited.
  const guards: AccessGuards = { hook: 'onRequest', rules: { signedIn: identity.requireAccount, anyone: identity.identifyIfSignedIn } };

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const userId = request.caller?.kind === 'account' ? request.caller.userId : undefined;
    const { status, body } = await templatesClient.forward(request.method, request.url, {
      userId,
      body: request.body,
      requestId: request.id,
    });
    // The service's error is already the API's problem body (its request id is this request's): sent on as is.
    if (status >= 400) reply.type(PROBLEM_CONTENT_TYPE);
    return reply.status(status).send(body);
  };

  for (const route of Object.values(TemplateRoutes)) {
    // Creating a template (or a copy) is safe to retry with an Idempotency-Key (`idempotency`).
    const creates = route.idempotent === true;
    app.route({
      method: route.method,
      url: route.url,
      onRequest: guardFor(guards, route) ?? undefined,
      schema: creates ? { ...route.schema, headers: IdempotencyHeaders } : route.schema,
      ...(creates ? { config: { idempotent: true as const } } : {}),
      handler: forward,
    });
  }

  // One filling per request, whether the cache asks for the template's version first or the render needs it.
  const fillings = new WeakMap<FastifyRequest, Promise<TemplateRenderInput>>();
  const filled = ({ templateId, variables }: TemplateGenerateBody, request: FastifyRequest) => {
    let input = fillings.get(request);
    if (!input) {
      input = templatesClient.renderInput(templateId, identity.account(request).userId, variables ?? {}, request.id);
      fillings.set(request, input);
    }
    return input;
  };

  renderRoute(app, RenderRoutes.template, {
    kind: 'svg',
    ledgerKind: 'template',
    toPayload: (body, request) => templatePayload(filled(body, request), body.format, body.quality, body.optimize),
    // Cached images are keyed on the template's last change, as signed URLs are: an edit misses, and a
    // deleted (or no longer visible) template answers its 404 before the cache is read.
    cacheVersion: async (body, request) => (await filled(body, request)).updatedAt,
  });
};

export default templateRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse, SvgOutputFormats, TemplateGenerateBody, TemplateRoutes } from '@render/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { renderRoute } from '../lib/image-route.ts';
import { templatePayload } from '../lib/template-payload.ts';

/**
 * Template calls. CRUD, lists and stars are declared once in the contracts (`TemplateRoutes`): validated
 * here and passed to the templates service for the authenticated user, which serves them with the same
 * schemas. Generation is rendered here, because the gateway owns the render queue and credits.
 */
const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { identity, templatesClient } = app;

  const forward = async (request: FastifyRequest, reply: FastifyReply) => {
    const userId = request.caller?.kind === 'account' ? request.caller.userId : undefined;
    const { status, body } = await templatesClient.forward(request.method, request.url, {
      userId,
      body: request.body,
      requestId: request.id,
    });
    return reply.status(status).send(body);
  };

  for (const route of Object.values(TemplateRoutes)) {
    app.route({
      method: route.method,
      url: route.url,
      // Visitors may read what is public: their credentials are used when sent, and their absence is not limited.
      onRequest: route.access === 'signedIn' ? identity.requireAccount : identity.identifyIfSignedIn,
      schema: route.schema,
      handler: forward,
    });
  }

  renderRoute(app, {
    url: '/api/template/generate',
    kind: 'svg',
    ledgerKind: 'template',
    tags: ['templates'],
    access: 'signedIn',
    summary: 'Render a template with variables (one credit)',
    body: TemplateGenerateBody,
    formats: [...SvgOutputFormats],
    errors: { 403: ErrorResponse, 404: ErrorResponse },
    toPayload: ({ templateId, variables, format, quality, optimize }, request) =>
      templatePayload(
        templatesClient.renderInput(templateId, identity.account(request).userId, variables ?? {}),
        format,
        quality,
        optimize,
      ),
    output: (body) => body.outputType,
  });
};

export default templateRoutes;

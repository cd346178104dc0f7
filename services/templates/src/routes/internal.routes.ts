import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TemplatesInternalRoutes } from '@render/contracts';
import { fillTemplate } from '../lib/svg-template.ts';
import { templateId, templateNotFound } from './templates.routes.ts';

/**
 * Service-to-service calls of the gateway's render paths. Rendering itself (queue, credits, cache) stays
 * in the gateway; this service only says what to render.
 */
const internalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { templates } = app.repositories;

  app.post(
    '/internal/templates/:id/render-input',
    {
      schema: TemplatesInternalRoutes.renderInput.schema,
    },
    async (request) => {
      const row = await templates.findVisible(templateId(request.params.id), request.body.userId);
      if (!row) throw templateNotFound();
      const filled = fillTemplate(row.svg, row.variables, request.body.variables ?? {});
      return { ...filled, width: row.width, height: row.height, updatedAt: row.updated_at.toISOString() };
    },
  );

  // Signed image URLs carry no session: the signature is checked against the owner's key, so the gateway
  // first needs to know who the owner is (and which version it would be caching).
  app.get(
    '/internal/templates/:id/owner',
    {
      schema: TemplatesInternalRoutes.owner.schema,
    },
    async (request) => {
      const row = await templates.findOwner(templateId(request.params.id));
      if (!row) throw templateNotFound();
      return { ownerId: row.user_id, updatedAt: row.updated_at.toISOString() };
    },
  );
};

export default internalRoutes;

import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppError } from '@render/contracts';
import { ApiKeysRepository } from '@render/db';
import { ApiKeyOwnerResponse, ApiKeyResponse, ApiKeyVerifyBody } from '../contracts/auth.contracts.ts';
import { rotateApiKey } from '../lib/accounts.ts';
import { safeEqual, sha256 } from '../lib/secrets.ts';

const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const apiKeys = new ApiKeysRepository(app.db);

  app.post(
    '/api/auth/api-key/regenerate',
    {
      preHandler: app.authenticate,
      schema: { tags: ['auth'], summary: 'Replace the API key; the old one stops working at once', response: { 200: ApiKeyResponse } },
    },
    async (request) => ({ success: true as const, apiKey: await rotateApiKey(app.db, app.apiKeyCipher, request.account.id) }),
  );

  // Service-to-service: the gateway resolves a caller's API key here. Not for browsers.
  await app.register(async (scope) => {
    const internal = scope.withTypeProvider<TypeBoxTypeProvider>();
    internal.addHook('onRequest', async (request) => {
      const token = request.headers['x-internal-token'];
      if (typeof token !== 'string' || !safeEqual(token, app.internalToken)) throw new AppError('UNAUTHORIZED', 'Internal token required');
    });

    internal.post(
      '/internal/api-keys/verify',
      {
        schema: {
          tags: ['internal'],
          summary: 'Resolve an API key to its owner',
          body: ApiKeyVerifyBody,
          response: { 200: ApiKeyOwnerResponse },
        },
      },
      async (request) => {
        const owner = await apiKeys.findOwnerByHash(sha256(request.body.apiKey));
        if (!owner) throw new AppError('UNAUTHORIZED', 'Invalid API key');
        return owner;
      },
    );
  });
};

export default apiKeyRoutes;

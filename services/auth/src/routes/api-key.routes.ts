import { createHmac } from 'node:crypto';
import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AccountRoutes, AppError, AuthInternalRoutes, AuthMessages, RenderLinkMessages } from '@render/contracts';
import { requireInternalToken, safeEqual } from '@render/fastify-kit';
import { rotateApiKey, userView } from '../lib/accounts.ts';
import { createNamedKey, namedKeyView, ownerAnswer, revokeNamedKey } from '../lib/named-keys.ts';
import { sha256 } from '../lib/secrets.ts';
import { serveAccount } from '../lib/serve-account.ts';

const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { apiKeys, users } = app.repositories;

  const serve = serveAccount(app);
  serve(AccountRoutes.regenerateApiKey, async (request) => ({
    success: true as const,
    apiKey: await rotateApiKey(app.repositories, app.apiKeyCipher, request.account.id),
  }));

  // Named keys: managed with a session only (a key cannot mint or revoke keys).
  serve(AccountRoutes.listApiKeys, async (request) => ({
    success: true as const,
    data: (await apiKeys.listNamed(request.account.id)).map(namedKeyView),
  }));
  serve(AccountRoutes.createApiKey, async (request, reply) => {
    const created = await createNamedKey(apiKeys, request.account.id, request.body);
    return reply.code(201).send({ success: true as const, ...created });
  });
  serve(AccountRoutes.revokeApiKey, async (request) => ({
    success: true as const,
    id: await revokeNamedKey(apiKeys, request.account.id, request.params.id),
  }));
  serveAccount(app)(AccountRoutes.renderLinkSettings, async (request) => {
    const updated = await users.updateRenderLinksSignedOnly(request.account.id, request.body.signedOnly);
    if (!updated) throw new AppError('UNAUTHORIZED', AuthMessages.invalidToken);
    return { success: true as const, user: await userView(app, updated) };
  });

  // Service-to-service: the gateway resolves a caller's API key here. Not for browsers.
  await app.register(async (scope) => {
    const internal = scope.withTypeProvider<TypeBoxTypeProvider>();
    internal.addHook('onRequest', requireInternalToken(app.internalToken));

    internal.post(
      '/internal/api-keys/verify',
      {
        schema: AuthInternalRoutes.verifyApiKey.schema,
      },
      async (request) => {
        const owner = await apiKeys.findOwnerByHash(sha256(request.body.apiKey));
        if (!owner) throw new AppError('UNAUTHORIZED', 'Invalid API key');
        await app.keyUse.record(owner.keyId);
        return ownerAnswer(owner);
      },
    );
    internal.post(
      '/internal/api-keys/verify-signature',
      {
        schema: AuthInternalRoutes.verifySignature.schema,
      },
      async (request) => {
        const { userId, message, signature } = request.body;
        // The key never leaves this service: the gateway asks whether the signature matches, not for the key.
        const [key, user] = await Promise.all([apiKeys.findActiveByUserId(userId), users.findById(userId)]);
        const secret = key?.key_ciphertext ? app.apiKeyCipher.tryDecrypt(key.key_ciphertext) : null;
        const expected = secret ? createHmac('sha256', secret).update(message).digest('hex') : '';
        if (!user || !secret || !safeEqual(expected, signature.toLowerCase())) throw new AppError('FORBIDDEN', 'Invalid signature');
        return { userId: user.id, role: user.role, plan: user.plan };
      },
    );
    internal.post(AuthInternalRoutes.renderLinkOwner.url, { schema: AuthInternalRoutes.renderLinkOwner.schema }, async (request) => {
      const { keyHash, message, signature } = request.body;
      const owner = await apiKeys.findRenderLinkOwnerByHash(keyHash);
      if (!owner) throw new AppError('UNAUTHORIZED', RenderLinkMessages.keyUnknown);
      if (signature === undefined) {
        if (owner.signedOnly) throw new AppError('FORBIDDEN', RenderLinkMessages.signedOnly);
      } else {
        // As for template URLs, the key never leaves this service: the gateway asks whether the signature matches.
        const secret = owner.keyCiphertext ? app.apiKeyCipher.tryDecrypt(owner.keyCiphertext) : null;
        const expected = secret ? createHmac('sha256', secret).update(message).digest('hex') : '';
        if (!secret || !safeEqual(expected, signature.toLowerCase())) throw new AppError('FORBIDDEN', RenderLinkMessages.signatureInvalid);
      }
      return { userId: owner.userId, role: owner.role, plan: owner.plan };
    });
  });
};

export default apiKeyRoutes;

import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AccountRoutes, AppError, AuthInternalRoutes } from '@render/contracts';
import type { WebhookSecretRow } from '@render/db';
import { requireInternalToken } from '@render/fastify-kit';
import { newWebhookSecret } from '../lib/secrets.ts';
import { serveAccount } from '../lib/serve-account.ts';

/**
 * The account's webhook signing secret. Stored AES-256-GCM encrypted like API keys (same cipher and key):
 * the dashboard shows it again and the render worker needs it in clear to sign each delivery.
 */
const webhookSecretRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { webhookSecrets } = app.repositories;
  const cipher = app.apiKeyCipher;

  const reveal = (row: WebhookSecretRow): string => {
    const secret = cipher.tryDecrypt(row.secret_ciphertext);
    // API_KEY_ENCRYPTION_KEY changed since it was stored: the account rotates to get a usable one.
    if (!secret)
      throw new AppError('SERVICE_UNAVAILABLE', 'The webhook secret cannot be read; rotate it to get a new one', undefined, {
        retryAfterSeconds: 60,
      });
    return secret;
  };
  /** The account's secret, made on first use: every account can receive signed webhooks without a setup step. */
  const secretOf = async (userId: string) => webhookSecrets.findOrCreate(userId, cipher.encrypt(newWebhookSecret()));
  const view = (row: WebhookSecretRow) => ({
    success: true as const,
    secret: reveal(row),
    createdAt: new Date(row.created_at).toISOString(),
  });

  // A script holding the API key may read it (it can render with webhooks already); rotating needs a session.
  const serve = serveAccount(app);
  serve(AccountRoutes.webhookSecret, async (request) => view(await secretOf(request.account.id)));
  serve(AccountRoutes.rotateWebhookSecret, async (request) =>
    view(await webhookSecrets.replace(request.account.id, cipher.encrypt(newWebhookSecret()))),
  );

  // Service-to-service: a render worker signs a delivery with the secret current at delivery time.
  await app.register(async (scope) => {
    const internal = scope.withTypeProvider<TypeBoxTypeProvider>();
    internal.addHook('onRequest', requireInternalToken(app.internalToken));
    internal.post('/internal/webhook-secret', { schema: AuthInternalRoutes.webhookSecret.schema }, async (request) => {
      const user = await app.repositories.users.findById(request.body.userId);
      if (!user) throw new AppError('NOT_FOUND', 'Account not found');
      return { secret: reveal(await secretOf(user.id)) };
    });
  });
};

export default webhookSecretRoutes;

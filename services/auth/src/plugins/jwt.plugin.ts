import fastifyJwt from '@fastify/jwt';
import { ApiKeyMessages, AppError, AuthMessages, scopeAllows } from '@render/contracts';
import type { UserRole, UserRow } from '@render/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sha256 } from '../lib/secrets.ts';

/**
 * `pwc`: when the account's password last changed (epoch ms, 0 for never) as the token was issued. A
 * password reset changes it, which ends every session issued before (tokens from before this claim
 * existed count as 0, so they end too once the password changes).
 */
type Claims = { sub: string; role: UserRole; pwc?: number };

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: Claims;
    user: Claims;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * preHandler of calls that change the account (or open a session, billing, admin): a valid session token
     * (Bearer JWT) of an existing account, loaded into `request.account`. A valid API key is refused with 403:
     * a key sits in scripts and CI settings, and must not be enough to take the account over.
     */
    authenticate(request: FastifyRequest): Promise<void>;
    /** preHandler of read-only account calls a script makes (me, usage): as `authenticate`, or the account's API key. */
    authenticateReader(request: FastifyRequest): Promise<void>;
    /** preHandler: as `authenticate`, and the account must be an administrator now (not only when the token was issued). */
    requireAdmin(request: FastifyRequest): Promise<void>;
    issueToken(user: Pick<UserRow, 'id' | 'role' | 'password_changed_at'>): string;
  }
  interface FastifyRequest {
    account: UserRow;
  }
}

// The algorithm is pinned on both sides: a token signed with another algorithm (or `none`) is refused
// even when its signature would check out with the same secret.
const ALGORITHM = 'HS256';

// What the gateway also takes for an API key; a JWT starts with its base64url header ("eyJ").
const API_KEY_PREFIX = 'rk_';

type Credential = { type: 'token' } | { type: 'apiKey'; key: string } | null;

/**
 * The credential a request carries. Authorization decides when present (a Bearer `rk_…` is an API key,
 * anything else goes to the JWT check, which refuses what is not a valid token); otherwise X-API-Key.
 */
function credentialOf(request: FastifyRequest): Credential {
  const authorization = request.headers.authorization;
  if (authorization) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    return bearer?.startsWith(API_KEY_PREFIX) ? { type: 'apiKey', key: bearer } : { type: 'token' };
  }
  const apiKey = request.headers['x-api-key'];
  if (typeof apiKey === 'string' && apiKey.trim()) return { type: 'apiKey', key: apiKey.trim() };
  return null;
}

async function jwtPlugin(app: FastifyInstance, opts: { secret: string; expiresIn: string }) {
  await app.register(fastifyJwt, {
    secret: opts.secret,
    sign: { algorithm: ALGORITHM, expiresIn: opts.expiresIn },
    verify: { algorithms: [ALGORITHM] },
  });
  const { users, apiKeys } = app.repositories;

  app.decorateRequest('account', null as unknown as UserRow);
  const passwordChangedAt = (user: Pick<UserRow, 'password_changed_at'>) => user.password_changed_at?.getTime() ?? 0;
  app.decorate('issueToken', (user: Pick<UserRow, 'id' | 'role' | 'password_changed_at'>) =>
    app.jwt.sign({ sub: user.id, role: user.role, pwc: passwordChangedAt(user) }),
  );

  const sessionAccount = async (request: FastifyRequest): Promise<UserRow> => {
    let claims: Claims;
    try {
      claims = await request.jwtVerify();
    } catch {
      throw new AppError('UNAUTHORIZED', AuthMessages.invalidToken);
    }
    // A deleted account's token, or one issued before the password last changed, must stop working
    // before it expires.
    const account = typeof claims.sub === 'string' ? await users.findById(claims.sub).catch(() => undefined) : undefined;
    if (!account || (claims.pwc ?? 0) !== passwordChangedAt(account)) throw new AppError('UNAUTHORIZED', AuthMessages.invalidToken);
    return account;
  };

  // Looked up by hash, as /internal/api-keys/verify does; a regenerated key stops working at once.
  // An account call made with an API key reads the account: a named key needs the `full` scope for it.
  const apiKeyAccount = async (key: string): Promise<UserRow> => {
    const owner = await apiKeys.findOwnerByHash(sha256(key));
    const account = owner ? await users.findById(owner.userId) : undefined;
    if (!owner || !account) throw new AppError('UNAUTHORIZED', AuthMessages.invalidApiKey);
    if (!scopeAllows(owner.scope, 'full')) throw new AppError('FORBIDDEN', ApiKeyMessages.scopeTooNarrow);
    await app.keyUse.record(owner.keyId);
    return account;
  };

  const authenticate = async (request: FastifyRequest) => {
    const credential = credentialOf(request);
    if (credential?.type === 'apiKey') {
      // A wrong key is still a 401; only a valid one learns that this call needs a session.
      await apiKeyAccount(credential.key);
      throw new AppError('FORBIDDEN', AuthMessages.sessionRequired);
    }
    request.account = await sessionAccount(request);
  };
  app.decorate('authenticate', authenticate);
  app.decorate('authenticateReader', async (request: FastifyRequest) => {
    const credential = credentialOf(request);
    request.account = credential?.type === 'apiKey' ? await apiKeyAccount(credential.key) : await sessionAccount(request);
  });
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    await authenticate(request);
    if (request.account.role !== 'admin') throw new AppError('FORBIDDEN', 'Administrator access required');
  });
}

export default fp(jwtPlugin, { name: 'jwt', fastify: '5.x', dependencies: ['repositories', 'security'] });

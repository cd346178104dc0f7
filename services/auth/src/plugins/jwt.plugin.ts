import fastifyJwt from '@fastify/jwt';
import { AppError } from '@render/contracts';
import { type UserRole, type UserRow, UsersRepository } from '@render/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

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
    /** preHandler: a valid Bearer token of an existing account, loaded into `request.account`. */
    authenticate(request: FastifyRequest): Promise<void>;
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

async function jwtPlugin(app: FastifyInstance, opts: { secret: string; expiresIn: string }) {
  await app.register(fastifyJwt, {
    secret: opts.secret,
    sign: { algorithm: ALGORITHM, expiresIn: opts.expiresIn },
    verify: { algorithms: [ALGORITHM] },
  });
  const users = new UsersRepository(app.db);

  app.decorateRequest('account', null as unknown as UserRow);
  const passwordChangedAt = (user: Pick<UserRow, 'password_changed_at'>) => user.password_changed_at?.getTime() ?? 0;
  app.decorate('issueToken', (user: Pick<UserRow, 'id' | 'role' | 'password_changed_at'>) =>
    app.jwt.sign({ sub: user.id, role: user.role, pwc: passwordChangedAt(user) }),
  );

  const authenticate = async (request: FastifyRequest) => {
    let claims: Claims;
    try {
      claims = await request.jwtVerify();
    } catch {
      throw new AppError('UNAUTHORIZED', 'Invalid or expired token');
    }
    // A deleted account's token, or one issued before the password last changed, must stop working
    // before it expires.
    const account = typeof claims.sub === 'string' ? await users.findById(claims.sub).catch(() => undefined) : undefined;
    if (!account || (claims.pwc ?? 0) !== passwordChangedAt(account)) throw new AppError('UNAUTHORIZED', 'Invalid or expired token');
    request.account = account;
  };
  app.decorate('authenticate', authenticate);
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    await authenticate(request);
    if (request.account.role !== 'admin') throw new AppError('FORBIDDEN', 'Administrator access required');
  });
}

export default fp(jwtPlugin, { name: 'jwt', fastify: '5.x', dependencies: ['db'] });

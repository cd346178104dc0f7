import fastifyJwt from '@fastify/jwt';
import { AppError } from '@render/contracts';
import { type UserRole, type UserRow, UsersRepository } from '@render/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string; role: UserRole };
    user: { sub: string; role: UserRole };
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: a valid Bearer token of an existing account, loaded into `request.account`. */
    authenticate(request: FastifyRequest): Promise<void>;
    /** preHandler: as `authenticate`, and the account must be an administrator now (not only when the token was issued). */
    requireAdmin(request: FastifyRequest): Promise<void>;
    issueToken(user: Pick<UserRow, 'id' | 'role'>): string;
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
  app.decorate('issueToken', (user: Pick<UserRow, 'id' | 'role'>) => app.jwt.sign({ sub: user.id, role: user.role }));

  const authenticate = async (request: FastifyRequest) => {
    let claims: { sub: string; role: UserRole };
    try {
      claims = await request.jwtVerify();
    } catch {
      throw new AppError('UNAUTHORIZED', 'Invalid or expired token');
    }
    // A deleted account's token must stop working before it expires.
    const account = typeof claims.sub === 'string' ? await users.findById(claims.sub).catch(() => undefined) : undefined;
    if (!account) throw new AppError('UNAUTHORIZED', 'Invalid or expired token');
    request.account = account;
  };
  app.decorate('authenticate', authenticate);
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    await authenticate(request);
    if (request.account.role !== 'admin') throw new AppError('FORBIDDEN', 'Administrator access required');
  });
}

export default fp(jwtPlugin, { name: 'jwt', fastify: '5.x', dependencies: ['db'] });

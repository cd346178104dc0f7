import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

// POST /api/code-to-img/convert — being built (issue 4); registered so the app wiring is in place.
const codeRoutes: FastifyPluginAsyncTypebox = async () => {};

export default codeRoutes;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

// POST /api/chart-to-img/convert — being built (issue 4); registered so the app wiring is in place.
const chartRoutes: FastifyPluginAsyncTypebox = async () => {};

export default chartRoutes;

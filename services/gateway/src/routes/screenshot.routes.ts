import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

// POST /api/screenshot/convert — being built (issue 4); registered so the app wiring is in place.
const screenshotRoutes: FastifyPluginAsyncTypebox = async () => {};

export default screenshotRoutes;

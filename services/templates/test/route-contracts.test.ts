import { type PublicRoute, TemplateRoutes } from '@render/contracts';
import { INTERNAL_TOKEN_HEADER, recordServedRoutes, type ServedRoutes } from '@render/fastify-kit';
import type { Listening } from '@render/test-stack/in-process';
import { itServesExactly, listenRecorded } from '@render/test-stack/served-contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateGuards } from '../src/routes/templates.routes.ts';
import { templatesService } from '../src/service.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

const TOKEN = 'templates-contract-test-token';
let service: Listening & { served: ServedRoutes };

beforeAll(async () => {
  const config = templatesService.loadConfig({ DATABASE_URL: databaseUrl, INTERNAL_TOKEN: TOKEN, LOG_LEVEL: 'silent' });
  service = await listenRecorded(templatesService, config, recordServedRoutes);
});
afterAll(async () => service?.close());

describe('the templates service serves exactly its contracts (TemplateRoutes)', () => {
  itServesExactly(() => service.served, Object.values(TemplateRoutes) as PublicRoute[], templateGuards);

  it('answers a body that breaks the contract with a 400 before anything is stored', async () => {
    const res = await service.server.inject({
      method: 'POST',
      url: TemplateRoutes.create.url,
      headers: {
        [INTERNAL_TOKEN_HEADER]: TOKEN,
        'x-user-id': '00000000-0000-4000-8000-000000000001',
        'content-type': 'application/json',
      },
      payload: { name: 'No SVG', width: 100, height: 100 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
  });
});

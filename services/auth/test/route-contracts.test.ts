import { randomBytes } from 'node:crypto';
import { AccountRoutes, type PublicRoute } from '@render/contracts';
import { recordServedRoutes, type ServedRoutes } from '@render/fastify-kit';
import type { Listening } from '@render/test-stack/in-process';
import { itServesExactly, listenRecorded } from '@render/test-stack/served-contracts';
import { afterAll, beforeAll, describe } from 'vitest';
import { accountGuards } from '../src/lib/serve-account.ts';
import { authService } from '../src/service.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

let service: Listening & { served: ServedRoutes };

beforeAll(async () => {
  const config = authService.loadConfig({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(32).toString('hex'),
    API_KEY_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    INTERNAL_TOKEN: randomBytes(24).toString('hex'),
    APP_URL: 'http://app.test',
    LOG_LEVEL: 'silent',
  });
  service = await listenRecorded(authService, config, recordServedRoutes);
});
afterAll(async () => service?.close());

describe('the account service serves exactly its contracts (AccountRoutes)', () => {
  itServesExactly(() => service.served, Object.values(AccountRoutes) as PublicRoute[], accountGuards);
});

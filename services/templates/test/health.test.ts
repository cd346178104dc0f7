import type { AddressInfo } from 'node:net';
import { expectLiveAndReady, expectLiveNotReady } from '@render/test-stack/health-probes';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import app, { serverOptions } from '../src/app.ts';
import { loadTemplatesConfig } from '../src/config.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) throw new Error('TEST_DATABASE_URL is required (run the tests through ./scripts/test)');

const start = async (url: string): Promise<{ server: FastifyInstance; url: string }> => {
  const config = loadTemplatesConfig({ DATABASE_URL: url, INTERNAL_TOKEN: 'templates-health-test-token', LOG_LEVEL: 'silent' });
  const server = Fastify(serverOptions(config));
  await server.register(app, { config });
  await server.listen({ port: 0, host: '127.0.0.1' });
  return { server, url: `http://127.0.0.1:${(server.server.address() as AddressInfo).port}` };
};

describe('templates health and metrics', () => {
  let up: { server: FastifyInstance; url: string };
  let down: { server: FastifyInstance; url: string };

  beforeAll(async () => {
    up = await start(databaseUrl);
    // Postgres on a port nothing listens on.
    down = await start('postgres://nobody:nothing@127.0.0.1:9/none');
  });

  afterAll(async () => {
    await up?.server.close();
    await down?.server.close();
  });

  it('is live and ready with Postgres, without the internal token', async () => {
    await expectLiveAndReady(up.url, ['postgres']);
  });

  it('is not ready without Postgres', async () => {
    await expectLiveNotReady(down.url, 'postgres');
  });

  it('serves metrics', async () => {
    const res = await fetch(`${up.url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{service="templates",route="\/health\/ready",method="GET",status_code="200"\} \d+/,
    );
  });
});

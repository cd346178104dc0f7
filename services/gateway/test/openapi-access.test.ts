import { randomUUID } from 'node:crypto';
import { operationAccess } from '@render/contracts';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startTemplates, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// The document's security requirements are what the docs page and the SDK tell users about access. Each
// operation is called as a user would who believed it: with no credentials at all (an operation declared
// to need them must answer 401, one declared anonymous or public must not), and with an API key (a
// session-only operation must refuse it with 403). Bodies are empty objects and ids unknown, so nothing
// is created, changed or rendered; no render worker is needed.

type Operation = { security?: Array<Record<string, unknown>> };
let auth: Stack;
let templates: { url: string; close(): Promise<void> };
let gateway: TestGateway;
let operations: Array<{ method: string; path: string; operation: Operation }>;
let apiKey: string;

beforeAll(async () => {
  auth = await startStack();
  templates = await startTemplates(auth.databaseUrl, INTERNAL_TOKEN);
  gateway = await startGateway({
    QUEUE_PREFIX: uniquePrefix('openapi-access'),
    AUTH_SERVICE_URL: auth.url,
    TEMPLATES_SERVICE_URL: templates.url,
    INTERNAL_TOKEN,
  });
  ({ apiKey } = await verifiedUser(auth));
  const document = (await (await fetch(`${gateway.url}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
});

afterAll(async () => {
  await closeInOrder(gateway, templates, auth);
});

async function status(method: string, path: string, headers: Record<string, string> = {}): Promise<number> {
  const url = `${gateway.url}${path.replace(/\{[^}]+\}/g, randomUUID())}`;
  const withBody = method === 'POST' || method === 'PUT';
  const res = await fetch(url, {
    method,
    headers: withBody ? { 'content-type': 'application/json', ...headers } : headers,
    body: withBody ? '{}' : undefined,
  });
  await res.arrayBuffer();
  return res.status;
}

describe('access as the OpenAPI document declares it', () => {
  it('covers every kind of access the gateway has', () => {
    const kinds = new Set(operations.map(({ operation }) => operationAccess(operation.security)));
    expect([...kinds].sort()).toEqual(['anonymous', 'public', 'session', 'signedIn']);
  });

  it('without credentials: 401 exactly where the document says credentials are needed', async () => {
    const mismatches: string[] = [];
    for (const { method, path, operation } of operations) {
      const access = operationAccess(operation.security);
      const answered = await status(method, path);
      const needsCredentials = access === 'signedIn' || access === 'session';
      if (needsCredentials !== (answered === 401)) mismatches.push(`${method} ${path}: declared ${access}, answered ${answered}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('with an API key: refused with 403 exactly where the document asks for a session token', async () => {
    const mismatches: string[] = [];
    for (const { method, path, operation } of operations) {
      const access = operationAccess(operation.security);
      if (access === 'public') continue; // credentials are not read
      const answered = await status(method, path, { 'x-api-key': apiKey });
      const refused = answered === 401 || answered === 403;
      if ((access === 'session') !== refused) mismatches.push(`${method} ${path}: declared ${access}, answered ${answered}`);
    }
    expect(mismatches).toEqual([]);
  });
});

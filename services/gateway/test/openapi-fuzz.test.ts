// The real account service, in-process on a throwaway database with a real SMTP server, as its own tests start it.

import { proPriceEnv, proPrices } from '@render/auth/stand-in-prices';
import { type StripeStandIn, startStripeStandIn } from '@render/auth/stripe-stand-in';
import { closeInOrder } from '@render/test-stack/teardown';
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type Stack, verifiedUser } from './helpers/auth-stack.ts';
import { hostileValue, inlineRefs, mutatedObject, type Schema, schemaArbitrary } from './helpers/openapi-arbitraries.ts';
import { startCanary, type TestServer } from './helpers/servers.ts';
import { type FullStack, startFullStack, type TestGateway } from './helpers/stack.ts';

// Property-based requests generated from the gateway's own OpenAPI document, sent over a real socket to the
// whole stack (auth, templates, Postgres, Redis, a render worker with Chromium). Every answer must be below
// 500, have a status the document lists for that operation, and match the documented schema and media type.
// Half the requests follow the schemas, the rest are hostile (wrong types, dropped or unknown fields, NUL,
// traversal, huge strings, broken JSON). FUZZ_RUNS raises the number of requests per operation.

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);

type Operation = {
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: Array<Record<string, string[]>>;
};
type Document = Schema & { paths: Record<string, Record<string, Operation>> };

interface GeneratedRequest {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string } | { kind: 'none' };
  credentials: 'apiKey' | 'token' | 'none' | 'bogus';
  valid: boolean;
}

let stack: FullStack;
let auth: Stack;
let gateway: TestGateway;
let canary: TestServer;
let stripe: StripeStandIn;
let user: Awaited<ReturnType<typeof verifiedUser>>;
let document: Document;
const templateIds: string[] = [];

const TEMPLATE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect width="100" height="50" fill="#09c"/><text x="5" y="30" data-variable="title">Hi</text></svg>';

beforeAll(async () => {
  // Billing answers 503 without Stripe; the stand-in Stripe server makes it answer as in production.
  stripe = await startStripeStandIn({ prices: proPrices('price') });
  stack = await startFullStack('fuzz', {
    auth: {
      ...stripe.env,
      STRIPE_SECRET_KEY: 'sk_test_fake',
      STRIPE_WEBHOOK_SECRET: 'whsec_fuzz',
      ...proPriceEnv('price'),
    },
    worker: { RENDER_TIMEOUT_MS: '5000' },
  });
  ({ auth, gateway } = stack);
  canary = await startCanary();
  user = await verifiedUser(auth, { name: 'Fuzz Tester' });
  document = (await (await fetch(`${gateway.url}/api/openapi.json`)).json()) as Document;
  // Real ids for the {id} parameters: a private template and a public one.
  for (const publish of [false, true]) {
    const res = await fetch(`${gateway.url}/api/template`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: JSON.stringify({
        name: 'Fuzz card',
        width: 100,
        height: 50,
        svg: TEMPLATE_SVG,
        variables: [{ name: 'title', type: 'text', defaultValue: 'Hi' }],
      }),
    });
    const id = (await json(res)).data.id as string;
    if (publish)
      await fetch(`${gateway.url}/api/template/${id}/publish`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` } });
    templateIds.push(id);
  }
}, 60_000);

afterAll(async () => {
  await closeInOrder(stack, canary, stripe);
});

// Fields whose valid values would make the stack reach outside the machine: only addresses that are refused
// at once, or not URLs at all.
const byName = (): Record<string, fc.Arbitrary<unknown>> => ({
  url: fc.constantFrom(
    canary.origin,
    'http://127.0.0.1:1/',
    'http://[::1]/',
    'http://0x7f.1/',
    'ftp://example.com/',
    'javascript:alert(1)',
    'not a url',
    '',
  ),
  // Refused at submission (loopback, not allow-listed; a name that never resolves) or not a URL.
  webhook: fc.constantFrom(canary.origin, 'http://localhost./hook', 'http://no-such-host.invalid/hook', 'not a url', ''),
  email: fc.oneof(
    fc.constant(user.email),
    fc.emailAddress().map((e) => `fuzz.${e}`.slice(0, 200)),
  ),
});

type Checked<T> = { value: T; valid: boolean };
const valid = <T>(arbitrary: fc.Arbitrary<T>) => arbitrary.map((value): Checked<T> => ({ value, valid: true }));
const invalid = <T>(arbitrary: fc.Arbitrary<T>) => arbitrary.map((value): Checked<T> => ({ value, valid: false }));

const pathValue = () =>
  fc.oneof(
    { weight: 4, arbitrary: valid(fc.constantFrom(...templateIds)) },
    { weight: 2, arbitrary: valid(fc.uuid()) },
    {
      weight: 2,
      arbitrary: invalid(fc.constantFrom('..', '%2e%2e', '..%2F..%2Finternal', 'a'.repeat(150), '%00', '%E0%A4%A', 'x%2Fy', '%20', '🙂')),
    },
    { weight: 1, arbitrary: invalid(fc.string({ minLength: 1, maxLength: 80 }).map(encodeURIComponent)) },
  );

// Node refuses request heads over 16 KB (431) before any route runs: hostile query values stay below that.
const queryValue = (schema: Schema) =>
  fc.oneof(
    { weight: 3, arbitrary: valid(schemaArbitrary(schema, { byName: byName() })) },
    { weight: 1, arbitrary: invalid(hostileValue.map((v) => (typeof v === 'string' ? v.slice(0, 2_000) : v))) },
  );

const allValid = (values: Record<string, Checked<unknown>>) => Object.values(values).every((v) => v.valid);
const unwrap = <T>(values: Record<string, Checked<T>>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.value]));

const RAW_BODIES = [
  '',
  'not json',
  '{"a":',
  '[]',
  'null',
  '"text"',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"x":1}}}',
];

function requestArbitrary(operation: Operation): fc.Arbitrary<GeneratedRequest> {
  const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path');
  const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query');
  const path = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue()])));
  const query = fc.record(Object.fromEntries(queryParams.map((p) => [p.name, queryValue(p.schema)])), {
    requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name),
  });
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const validBody = bodySchema ? schemaArbitrary(bodySchema, { byName: byName() }) : fc.constant(undefined);
  const body = fc.oneof(
    {
      weight: 5,
      arbitrary: validBody.map((value) => ({
        valid: true,
        body: value === undefined ? { kind: 'none' as const } : { kind: 'json' as const, value },
      })),
    },
    {
      weight: bodySchema ? 3 : 0,
      arbitrary: mutatedObject(validBody).map((value) => ({ valid: false, body: { kind: 'json' as const, value } })),
    },
    {
      weight: bodySchema ? 1 : 0,
      arbitrary: fc
        .tuple(fc.constantFrom(...RAW_BODIES), fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded'))
        .map(([text, contentType]) => ({ valid: false, body: { kind: 'raw' as const, text, contentType } })),
    },
  );
  const credentials = fc.constantFrom<GeneratedRequest['credentials']>('apiKey', 'apiKey', 'token', 'token', 'none', 'bogus');
  return fc.tuple(path, query, body, credentials).map(([p, q, b, c]) => ({
    path: unwrap(p) as Record<string, string>,
    query: unwrap(q as Record<string, Checked<unknown>>),
    body: b.body,
    credentials: c,
    valid: b.valid && allValid(p) && allValid(q as Record<string, Checked<unknown>>),
  }));
}

function urlOf(template: string, request: GeneratedRequest): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => request.path[name] ?? 'missing');
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) {
    if (value !== undefined) search.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const query = search.toString();
  return `${gateway.url}${path}${query ? `?${query}` : ''}`;
}

async function send(method: string, template: string, request: GeneratedRequest): Promise<Response> {
  const headers: Record<string, string> = {};
  if (request.credentials === 'apiKey') headers['x-api-key'] = user.apiKey;
  if (request.credentials === 'token') headers.authorization = `Bearer ${user.token}`;
  if (request.credentials === 'bogus') headers.authorization = 'Bearer rk_not-a-real-key';
  let body: string | undefined;
  if (request.body.kind === 'json') {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body.value) ?? 'null';
  } else if (request.body.kind === 'raw') {
    headers['content-type'] = request.body.contentType;
    body = request.body.text;
  }
  return fetch(urlOf(template, request), { method: method.toUpperCase(), headers, body, signal: AbortSignal.timeout(30_000) });
}

// ajv-formats is CommonJS: through Node's ESM interop its default export is module.exports, the plugin itself.
const addFormats = ajvFormats as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
ajv.addFormat('binary', true);
const validators = new Map<string, ValidateFunction>();

/** Why the answer breaks the document, or null when it keeps to it. */
async function violation(operation: Operation, key: string, res: Response): Promise<string | null> {
  const text = await res.text();
  if (res.status >= 500) return `${res.status}: ${text.slice(0, 300)}`;
  const documented = operation.responses[String(res.status)] ?? operation.responses.default;
  if (!documented) return `undocumented status ${res.status}: ${text.slice(0, 300)}`;
  if (!documented.content) return null;
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
  const content = documented.content[mediaType];
  if (!content)
    return `${res.status} answered ${mediaType || 'no content type'}, documented: ${Object.keys(documented.content).join(', ')}`;
  // JSON answers and error bodies (RFC 9457 problems) are checked against their schemas; images are not.
  if (mediaType !== 'application/json' && mediaType !== 'application/problem+json') return null;
  const validatorKey = `${key} ${res.status}`;
  let validate = validators.get(validatorKey);
  if (!validate) {
    validate = ajv.compile(inlineRefs(content.schema, document));
    validators.set(validatorKey, validate);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${res.status} is not the JSON it says it is: ${text.slice(0, 200)}`;
  }
  if (!validate(body)) return `${res.status} does not match its schema: ${ajv.errorsText(validate.errors)}; body ${text.slice(0, 300)}`;
  return null;
}

// Calls that end the fuzzing user's session or key run last, so that the others keep reaching past authentication.
const ENDS_SESSION = /logout|regenerate|delete-account|password|cancel/;

describe('requests generated from the OpenAPI document', () => {
  it('never get a 5xx, an undocumented status or an answer that breaks its schema', async () => {
    const operations = Object.entries(document.paths)
      .flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ path, method, operation: inlineRefs(operation, document) })),
      )
      .sort(
        (a, b) =>
          Number(ENDS_SESSION.test(a.path)) - Number(ENDS_SESSION.test(b.path)) ||
          Number(a.method === 'delete') - Number(b.method === 'delete'),
      );
    expect(operations.length).toBeGreaterThan(20);

    const failures: string[] = [];
    const refusedThoughValid: string[] = [];
    let sent = 0;
    for (const { path, method, operation } of operations) {
      const key = `${method.toUpperCase()} ${path}`;
      const details = await fc.check(
        fc.asyncProperty(requestArbitrary(operation), async (request) => {
          const res = await send(method, path, request);
          sent += 1;
          const copy = res.clone();
          const problem = await violation(operation, key, res);
          if (!problem && request.valid && res.status === 400 && refusedThoughValid.length < 200) {
            refusedThoughValid.push(key);
            if (process.env.FUZZ_DEBUG) console.info(key, (await copy.text()).slice(0, 200), JSON.stringify(request).slice(0, 300));
          }
          if (problem) throw new Error(problem);
        }),
        { numRuns: RUNS, endOnFailure: true },
      );
      if (details.failed) {
        failures.push(
          `${key}: ${(details.errorInstance as Error)?.message}\n  request: ${JSON.stringify(details.counterexample).slice(0, 600)}\n  seed ${details.seed}`,
        );
      }
    }
    const refusals: Record<string, number> = {};
    for (const key of refusedThoughValid) refusals[key] = (refusals[key] ?? 0) + 1;
    console.info(
      `openapi fuzz: ${sent} requests over ${operations.length} operations; schema-valid requests refused with 400: ${JSON.stringify(refusals)}`,
    );
    expect(failures).toEqual([]);
  }, 600_000);
});

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { seedStarterTemplates } from '@render/templates/starters/seed';
import { STARTER_OWNER, STARTER_TEMPLATES, starterSvg } from '@render/templates/starters/starters';
import { decodePng } from '@render/test-stack/images';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, verifiedUser } from './helpers/auth-stack.ts';
import { type FullStack, startFullStack } from './helpers/stack.ts';

// The public starter templates a fresh database is seeded with: seeded into a throwaway database, saved
// again through the real gateway and templates service as an ordinary user, and rendered by a real worker.
// STARTER_PNG_DIR=<dir> keeps the renders to look at.

let stack: FullStack;
let user: Awaited<ReturnType<typeof verifiedUser>>;

beforeAll(async () => {
  stack = await startFullStack('starters', { worker: { RENDER_QUEUES: 'svg' } });
  // Straight into the database, through the account service's pool (the stacks share one database).
  const first = await seedStarterTemplates(stack.auth.db);
  expect(first.written).toHaveLength(STARTER_TEMPLATES.length);
  // Idempotent: a second run writes nothing.
  expect((await seedStarterTemplates(stack.auth.db)).written).toEqual([]);
  user = await verifiedUser(stack.auth, { name: 'Starter Tester' });
});

afterAll(async () => {
  await stack?.close();
});

const call = (method: string, path: string, body?: unknown, token?: string) =>
  fetch(`${stack.gateway.url}${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('starter templates', () => {
  it('are public, owned by the starter account, and listed for visitors', async () => {
    const res = await call('GET', '/api/template/public?pageSize=50');
    expect(res.status).toBe(200);
    const { data } = await json(res);
    for (const starter of STARTER_TEMPLATES) {
      const listed = data.find((t: { id: string }) => t.id === starter.id);
      expect(listed, starter.name).toMatchObject({
        name: starter.name,
        width: starter.width,
        height: starter.height,
        isPublic: true,
        creatorName: STARTER_OWNER.name,
        variablesCount: starter.variables.length,
      });
    }
  });

  for (const starter of STARTER_TEMPLATES) {
    it(`${starter.name} saves through the templates service and generates an image`, async () => {
      const saved = await call(
        'POST',
        '/api/template',
        { name: starter.name, width: starter.width, height: starter.height, svg: starterSvg(starter), variables: starter.variables },
        user.token,
      );
      if (saved.status !== 201) expect.fail(`save: ${saved.status} ${await saved.text()}`);

      const res = await call('POST', '/api/template/generate', { templateId: starter.id, format: 'png' }, user.token);
      if (res.status !== 200) expect.fail(`generate: ${res.status} ${await res.text()}`);
      const bytes = Buffer.from(await res.arrayBuffer());
      const png = decodePng(bytes);
      expect([png.width, png.height]).toEqual([starter.width, starter.height]);
      if (process.env.STARTER_PNG_DIR) {
        mkdirSync(process.env.STARTER_PNG_DIR, { recursive: true });
        writeFileSync(join(process.env.STARTER_PNG_DIR, starter.file.replace(/\.svg$/, '.png')), bytes);
      }
    });
  }
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockfilePackages } from '../src/inventory.ts';

// A lockfile with each shape the walk must read: workspace links, peer suffixes, an alias, dev dependencies,
// and an optional dependency whose own dependencies an install may skip with it.
const LOCKFILE = `lockfileVersion: '9.0'
importers:
  .:
    devDependencies:
      vitest: { specifier: ^4, version: 4.1.0 }
  services/a:
    dependencies:
      '@render/b': { specifier: workspace:*, version: link:../../packages/b }
      fastify: { specifier: ^5, version: 5.0.0(pino@10.0.0) }
      filterlist: { specifier: npm:list@1, version: list@1.0.0 }
    optionalDependencies:
      wasm-build: { specifier: ^1, version: 1.0.0 }
packages: {}
snapshots:
  fastify@5.0.0(pino@10.0.0):
    dependencies:
      pino: 10.0.0
  pino@10.0.0: {}
  list@1.0.0: {}
  vitest@4.1.0:
    dependencies:
      chai: 5.0.0
  wasm-build@1.0.0:
    dependencies:
      wasm-runtime: 2.0.0
  wasm-runtime@2.0.0: {}
`;

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'licences-'));
  await writeFile(path.join(root, 'pnpm-lock.yaml'), LOCKFILE);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the lockfile walk', () => {
  it('follows production dependencies through the snapshots, aliases by their real name, without dev ones or links', async () => {
    const { found, required } = await lockfilePackages(root);
    expect(Object.fromEntries([...found].map(([name, versions]) => [name, [...versions]]))).toEqual({
      fastify: ['5.0.0'],
      pino: ['10.0.0'],
      list: ['1.0.0'],
      'wasm-build': ['1.0.0'],
      'wasm-runtime': ['2.0.0'],
    });
    // What only an optional dependency needs is not required: an install may leave both out.
    expect([...required].sort()).toEqual(['fastify', 'list', 'pino']);
  });
});

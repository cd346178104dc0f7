import { resolve } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ENTRY = resolve(import.meta.dirname, '../src/index.ts');

// The library must run wherever fetch and Web Crypto exist (browsers, Deno, Bun, edge runtimes, Node 22+):
// no `node:` import anywhere in its graph, and no Node global (process, Buffer, require) at run time.
describe('the library entry is fetch and Web Crypto only', () => {
  it('bundles for the neutral platform, where a node: import cannot resolve', async () => {
    const result = await build({
      entryPoints: [ENTRY],
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      write: false,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]!.text).not.toMatch(/from\s*["']node:/);
  });

  it('runs in a context holding only web globals', async () => {
    const { outputFiles } = await build({
      entryPoints: [ENTRY],
      bundle: true,
      format: 'iife',
      globalName: 'RenderSdk',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    // What a browser or Deno offers; nothing Node-only.
    const web = {
      fetch,
      Request,
      Response,
      Headers,
      URL,
      URLSearchParams,
      AbortController,
      AbortSignal,
      TextEncoder,
      TextDecoder,
      atob,
      btoa,
      crypto,
      setTimeout,
      clearTimeout,
    };
    const context = createContext({ ...web });
    runInContext(`${outputFiles[0]!.text}; globalThis.RenderSdk = RenderSdk;`, context);
    const sdk = context.RenderSdk as typeof import('../src/index.ts');
    expect(runInContext('typeof process + typeof Buffer + typeof require', context)).toBe('undefinedundefinedundefined');

    const header = await sdk.signWebhookPayload({ payload: '{"id":"x"}', secret: 'whsec_1', timestamp: 1_800_000_000 });
    expect(await sdk.verifyWebhookSignature({ payload: '{"id":"x"}', header, secret: 'whsec_1', now: 1_800_000_000 })).toBe(true);
    const client = new sdk.RenderClient({ baseUrl: 'https://render.example.com', apiKey: 'rk_1' });
    expect(await client.signedTemplateUrl({ templateId: 't', variables: { a: 'b' }, format: 'png' })).toMatch(
      /^https:\/\/render\.example\.com\/api\/template\/t\/image\?a=b&format=png&sig=[0-9a-f]{64}$/,
    );
  });
});

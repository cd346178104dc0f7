import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { baseUrl, closeBrowser, getBrowser, openPage } from './helpers/browser.ts';
import { startGateway, type TestGateway } from './helpers/stack.ts';

afterAll(closeBrowser);

const dist = join(import.meta.dirname, '..', 'dist');
const THIRD_PARTY = /posthog|sentry/i;

it('sends nothing to analytics or error reporting without keys (and in tests): every request stays on the gateway', async () => {
  const { page, context, requests } = await openPage();
  for (const path of ['/', '/html-to-image', '/docs', '/signup']) {
    await page.goto(`${baseUrl()}${path}`);
    await page.locator('main h1').waitFor();
    await page.waitForLoadState('networkidle');
  }
  // Even an uncaught error reports nowhere.
  await page.evaluate(() =>
    setTimeout(() => {
      throw new Error('e2e: no reporter');
    }),
  );
  await page.waitForTimeout(500);
  const elsewhere = requests.filter((url) => !url.startsWith(baseUrl()) && !url.startsWith('data:') && !url.startsWith('blob:'));
  expect(elsewhere).toEqual([]);
  expect(requests.filter((url) => THIRD_PARTY.test(url))).toEqual([]);
  await context.close();
});

it('with keys configured outside development, loads the official SDKs and sends to the configured EU host', async () => {
  let gateway: TestGateway | undefined;
  try {
    gateway = await startGateway({
      WEB_DIST_DIR: dist,
      APP_ENV: 'production',
      POSTHOG_KEY: 'phc_e2e_test_key',
      POSTHOG_HOST: 'https://eu.i.posthog.com',
      SENTRY_DSN: 'https://publickey@o1.ingest.de.sentry.io/1',
      // No account or template service is needed to serve the app.
      AUTH_SERVICE_URL: 'http://127.0.0.1:9',
      TEMPLATES_SERVICE_URL: 'http://127.0.0.1:9',
    });
    const context = await (await getBrowser()).newContext();
    const outbound: string[] = [];
    // Answered here, so nothing leaves the machine; what matters is that the app tried.
    await context.route(/posthog\.com|sentry\.io/, (route) => {
      outbound.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'application/json', body: '{}' });
    });
    const page = await context.newPage();
    await page.goto(`${gateway.url}/pricing`);
    await page.locator('main h1').waitFor();
    await page.evaluate(() =>
      setTimeout(() => {
        throw new Error('e2e: reported error');
      }),
    );
    await expect.poll(() => outbound.some((url) => new URL(url).hostname.endsWith('posthog.com')), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => outbound.some((url) => new URL(url).hostname === 'o1.ingest.de.sentry.io'), { timeout: 15_000 }).toBe(true);
    expect(
      outbound
        .filter((url) => new URL(url).hostname.endsWith('posthog.com'))
        .every((url) => /(^|\.)eu(-assets)?\.i\.posthog\.com$/.test(new URL(url).hostname)),
    ).toBe(true);
    await context.close();
  } finally {
    await gateway?.close();
  }
});

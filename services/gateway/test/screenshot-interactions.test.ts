import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScreenshotInteractionMessages as Messages } from '@render/contracts';
import type { RenderWorkerHandle } from '@render/render-worker';
import { decodePng } from '@render/test-stack/images';
import { closeInOrder } from '@render/test-stack/teardown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_TOKEN, type Stack, startStack, verifiedUser } from './helpers/auth-stack.ts';
import { startGateway, startWorker, type TestGateway, uniquePrefix } from './helpers/stack.ts';

// The screenshot options that act on the page or fail loudly (contracts' screenshot-interactions.ts), through
// the whole path: the gateway's checks (400 before anything is queued), the worker's real Chromium, and the
// account service's credits (a render failed on purpose uses none).

let auth: Stack;
let worker: RenderWorkerHandle;
let gateway: TestGateway;
let pages: { server: Server; origin: string };
const ROUTE = '/api/screenshot/convert';

function page(req: IncomingMessage, res: ServerResponse) {
  const html = (body: string, status = 200) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  switch (req.url) {
    case '/missing':
      return html('<body style="margin:0;background:#0000ff">Not here</body>', 404);
    case '/broken':
      return html('<body style="margin:0;background:#00ff00"><script>console.error("widget failed to start")</script></body>', 500);
    case '/interactive':
      // A red overlay to hide, a button that turns the page green, a blue block 2,000 px down to scroll to.
      return html(`<body style="margin:0;background:#ffffff">
        <div id="overlay" style="position:fixed;left:0;top:0;width:100px;height:100px;background:#ff0000;z-index:5"></div>
        <button id="go" style="position:absolute;left:200px;top:0;width:80px;height:30px" onclick="document.body.style.background='#00ff00'">go</button>
        <div style="height:2000px"></div><div id="blue" style="height:400px;background:#0000ff"></div></body>`);
    default:
      return html('<body style="margin:0;background:#00ff00"></body>');
  }
}

beforeAll(async () => {
  const server = createServer(page);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  pages = { server, origin: `http://127.0.0.1:${port}` };
  const prefix = uniquePrefix('shot-interact');
  auth = await startStack();
  worker = await startWorker({
    QUEUE_PREFIX: prefix,
    RENDER_QUEUES: 'screenshot',
    RENDER_TIMEOUT_MS: '8000',
    RENDER_EGRESS_ALLOWLIST: `127.0.0.1:${port}`,
  });
  gateway = await startGateway({ QUEUE_PREFIX: prefix, AUTH_SERVICE_URL: auth.url, INTERNAL_TOKEN });
});

afterAll(async () => {
  await closeInOrder(gateway, worker);
  await auth?.close();
  pages?.server.closeAllConnections();
  await new Promise((resolve) => pages?.server.close(resolve));
});

const used = async (token: string): Promise<number> => {
  const res = await auth.call('GET', '/api/auth/usage', { token });
  return ((await res.json()) as { data: { used: number } }).data.used;
};

const url = 'https://example.com/page';

describe('screenshot interaction options: the gateway refuses bad values before queueing', () => {
  it.each([
    [{ hideSelectors: '#ad' }, Messages.hideSelectors],
    [{ hideSelectors: Array.from({ length: 51 }, (_, i) => `#a${i}`) }, Messages.hideSelectors],
    [{ hideSelectors: [''] }, Messages.selectorEmpty],
    [{ hideSelectors: ['   '] }, Messages.selectorEmpty],
    [{ hideSelectors: [42] }, Messages.selectorType],
    [{ hideSelectors: ['a'.repeat(513)] }, Messages.selectorTooLong],
    [{ click: '#go' }, Messages.click],
    [{ click: Array.from({ length: 11 }, () => '#go') }, Messages.click],
    [{ click: [' '] }, Messages.selectorEmpty],
    [{ scrollTo: -1 }, Messages.scrollTo],
    [{ scrollTo: 100_001 }, Messages.scrollTo],
    [{ scrollTo: 1.5 }, Messages.scrollTo],
    [{ scrollTo: '' }, Messages.scrollTo],
    [{ scrollTo: '  ' }, Messages.scrollTo],
    [{ scrollTo: true }, Messages.scrollTo],
    [{ timezone: 'Mars/Base' }, Messages.timezone],
    [{ timezone: '+01:00' }, Messages.timezone],
    [{ timezone: 'Europe/Paris; x' }, Messages.timezone],
    [{ timezone: 7 }, Messages.timezone],
    [{ geolocation: 'Paris' }, Messages.geolocation],
    [{ geolocation: { latitude: 48.8 } }, Messages.geolocation],
    [{ geolocation: { latitude: 91, longitude: 0 } }, Messages.latitude],
    [{ geolocation: { latitude: 0, longitude: -181 } }, Messages.longitude],
    [{ geolocation: { latitude: 0, longitude: 0, accuracy: -1 } }, Messages.accuracy],
    [{ failOnHttpStatus: 404 }, Messages.failOnHttpStatus],
    [{ failOnHttpStatus: [200] }, Messages.failOnHttpStatus],
    [{ failOnHttpStatus: [404, 600] }, Messages.failOnHttpStatus],
    [{ failOnHttpStatus: ['404'] }, Messages.failOnHttpStatus],
    [{ failOnConsoleError: 'yes' }, Messages.failOnConsoleError],
    [{ blockRequests: '*.png' }, Messages.blockRequests],
    [{ blockRequests: Array.from({ length: 51 }, (_, i) => `*.x${i}`) }, Messages.blockRequests],
    [{ blockRequests: [''] }, Messages.blockPatternLength],
    [{ blockRequests: [`*${'a'.repeat(2048)}`] }, Messages.blockPatternLength],
    [{ blockRequests: ['cdn.example.com'] }, Messages.blockPatternForm],
    [{ blockRequests: ['*.png', 'https://example.com/*'] }, Messages.blockPatternPage],
    [{ blockRequests: ['*'] }, Messages.blockPatternPage],
  ])('%j → 400 with its catalogued message', async (fields, message) => {
    const res = await gateway.post(ROUTE, { url, ...fields });
    const json = (await res.json()) as { message: string; code: string; messageId?: string };
    expect(res.status, json.message).toBe(400);
    expect(json).toMatchObject({ code: 'VALIDATION_ERROR', message });
    expect(json.messageId).toMatch(/^screenshotOption\./);
  });
});

describe('screenshot interaction options through the stack', () => {
  it('hides, clicks and scrolls before the capture', async () => {
    const res = await gateway.post(ROUTE, {
      url: `${pages.origin}/interactive`,
      width: 400,
      height: 300,
      hideSelectors: ['#overlay'],
      click: ['#go'],
    });
    expect(res.status).toBe(200);
    const image = decodePng(Buffer.from(await res.arrayBuffer()));
    // Hidden: the page (turned green by the click) shows where the red overlay was.
    expect(image.pixel(50, 50)).toEqual([0, 255, 0, 255]);
    expect(image.pixel(350, 200)).toEqual([0, 255, 0, 255]);

    const scrolled = await gateway.post(ROUTE, { url: `${pages.origin}/interactive`, width: 400, height: 300, scrollTo: '#blue' });
    expect(scrolled.status).toBe(200);
    expect(decodePng(Buffer.from(await scrolled.arrayBuffer())).pixel(350, 200)).toEqual([0, 0, 255, 255]);
  });

  it('failOnHttpStatus answers 422 naming the status, and uses no credit', async () => {
    const user = await verifiedUser(auth);
    const res = await gateway.post(ROUTE, { url: `${pages.origin}/missing`, failOnHttpStatus: [404, 500] }, { 'x-api-key': user.apiKey });
    const json = (await res.json()) as { message: string; code: string };
    expect(res.status).toBe(422);
    expect(json).toMatchObject({
      code: 'RENDER_FAILED',
      message: 'Failed to capture screenshot: the page answered HTTP 404, which failOnHttpStatus lists',
    });
    expect(await used(user.token)).toBe(0);
    const rows = await auth.db.selectFrom('credit_ledger').select('status').where('user_id', '=', user.userId).execute();
    expect(rows).toEqual([{ status: 'released' }]);

    // Without the option the error page is captured, and charged as any image.
    const captured = await gateway.post(ROUTE, { url: `${pages.origin}/missing`, width: 200, height: 100 }, { 'x-api-key': user.apiKey });
    expect(captured.status).toBe(200);
    await captured.arrayBuffer();
    expect(await used(user.token)).toBe(1);
  });

  it('failOnConsoleError answers 422 quoting the page’s error, and uses no credit', async () => {
    const user = await verifiedUser(auth);
    const res = await gateway.post(ROUTE, { url: `${pages.origin}/broken`, failOnConsoleError: true }, { 'x-api-key': user.apiKey });
    const json = (await res.json()) as { message: string };
    expect(res.status).toBe(422);
    expect(json.message).toBe(
      'Failed to capture screenshot: the page logged an error (failOnConsoleError): console.error: widget failed to start',
    );
    expect(await used(user.token)).toBe(0);
  });
});

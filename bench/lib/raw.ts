import { chromiumLaunchOptions, DEFAULT_FONTCONFIG_FILE } from '@render/render-worker';
import { onCleanup, runCleanup } from '@render/test-stack/processes';
import puppeteer, { type Browser, type LaunchOptions, type Page } from 'puppeteer-core';
import { type LoadResult, runForDuration, runSequential, type Sample } from './load.ts';
import { SHOT_HEIGHT, SHOT_WIDTH } from './screenshot-pages.ts';
import { assertPng, HEIGHT, HTML, WIDTH } from './workload.ts';

// Nothing in the bench HTML is fetched; a dead proxy port proves it (a fetch would fail, not leave the host).
const NO_EGRESS_PROXY = 'http://127.0.0.1:9';
const TIMEOUT_MS = 20_000;

export const launchOptions = (executablePath: string): LaunchOptions =>
  chromiumLaunchOptions({
    executablePath,
    sandbox: 'auto',
    proxyUrl: NO_EGRESS_PROXY,
    fontconfig: { file: DEFAULT_FONTCONFIG_FILE, env: process.env },
  });

/** Launches Chromium and registers it for teardown, so a Ctrl-C mid-phase leaves no browser behind. */
async function launch(
  executablePath: string,
  options = launchOptions(executablePath),
): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await puppeteer.launch(options);
  const pid = browser.process()?.pid;
  // puppeteer starts Chromium as its own process group: killing the group takes its helpers with it.
  const killGroup = () => {
    if (!pid) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };
  const cleanup = onCleanup({
    name: 'chromium',
    run: async () => {
      await Promise.race([browser.close(), new Promise((r) => setTimeout(r, 5_000))]).catch(() => undefined);
      killGroup();
    },
    runSync: killGroup,
  });
  return { browser, close: () => runCleanup(cleanup) };
}

/** The worker's per-page setup for script-free HTML at 800×600, applied once as on its warm pages. */
async function preparePage(page: Page): Promise<void> {
  await page.setJavaScriptEnabled(false);
  await page.setViewport({ width: WIDTH, height: HEIGHT, deviceScaleFactor: 1 });
}

/** The worker's per-job calls (renderHtml + screenshot in page-ops.ts) for this HTML. */
async function renderOnce(page: Page): Promise<Uint8Array> {
  await page.setContent(HTML, { waitUntil: 'load', timeout: TIMEOUT_MS });
  return page.screenshot({ type: 'png', optimizeForSpeed: true, captureBeyondViewport: false });
}

export interface RawResults {
  chromiumVersion: string;
  sequential: LoadResult;
  parallel: LoadResult;
}

export async function runRaw(
  executablePath: string,
  opts: { pages: number; requests: number; warmupRequests: number; durationMs: number; warmupMs: number },
): Promise<RawResults> {
  const { browser, close } = await launch(executablePath);
  try {
    const chromiumVersion = await browser.version();
    const pages = await Promise.all(
      Array.from({ length: opts.pages }, async () => {
        const page = await browser.newPage();
        await preparePage(page);
        return page;
      }),
    );
    const op = (page: Page) => async () => {
      assertPng(await renderOnce(page));
      return {};
    };

    const first = pages[0] as Page;
    const sequential = await runSequential(op(first), { warmup: opts.warmupRequests, count: opts.requests });

    // Each loop owns one page, like a cluster worker slot: N pages rendering side by side in one browser.
    const parallel = await runForDuration((loop) => op(pages[loop] as Page)(), {
      concurrency: opts.pages,
      warmupMs: opts.warmupMs,
      durationMs: opts.durationMs,
    });
    return { chromiumVersion, sequential, parallel };
  } finally {
    await close();
  }
}

/**
 * One raw warm page kept open beside the stack, so the stack's c=1 runs can alternate with it (`runPaired`);
 * an idle Chromium costs the stack nothing meanwhile.
 */
export async function openRawPage(executablePath: string): Promise<{ render(): Promise<Sample>; close(): Promise<void> }> {
  const { browser, close } = await launch(executablePath);
  try {
    const page = await browser.newPage();
    await preparePage(page);
    return {
      render: async () => {
        assertPng(await renderOnce(page));
        return {};
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

/** What a render service without warm pages costs: a browser per request, closed afterwards. */
export async function runNaive(executablePath: string, opts: { iterations: number }): Promise<LoadResult> {
  const op = async () => {
    const { browser, close } = await launch(executablePath);
    try {
      const page = await browser.newPage();
      await page.setViewport({ width: WIDTH, height: HEIGHT, deviceScaleFactor: 1 });
      assertPng(await renderOnce(page));
    } finally {
      await close();
    }
    return {};
  };
  // One unmeasured launch first, so the disk cache state does not decide the result.
  return runSequential(op, { warmup: 1, count: opts.iterations });
}

/**
 * In the page: down a screen at a time, a frame at each step, back to the top, then the images still loading
 * awaited. What a hand-written script does before a full-page capture of a page with lazy images.
 */
const RAW_SCROLL = `(async () => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  for (let y = innerHeight; y < document.documentElement.scrollHeight; y += innerHeight) {
    scrollTo(0, y);
    await frame();
  }
  scrollTo(0, 0);
  await Promise.all(Array.from(document.images).filter((img) => !img.complete).map((img) => new Promise((resolve) => {
    img.addEventListener('load', resolve, { once: true });
    img.addEventListener('error', resolve, { once: true });
  })));
})()`;

/**
 * The screenshot phase's raw side: a hand-written Puppeteer loop over one warm page of its own browser (the
 * worker's flags, without the egress proxy: the script fetches the page directly), `goto(url, load)` then
 * `screenshot()`; for a full page it scrolls the page through first. No consent handling: the raw capture
 * of the banner page shows the banner.
 */
export async function openRawScreenshots(
  executablePath: string,
): Promise<{ shoot(url: string, fullPage: boolean, height: number): Promise<Sample>; close(): Promise<void> }> {
  const options = launchOptions(executablePath);
  const args = (options.args ?? []).filter((arg) => !arg.startsWith('--proxy-'));
  const { browser, close } = await launch(executablePath, { ...options, args });
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: SHOT_WIDTH, height: SHOT_HEIGHT, deviceScaleFactor: 1 });
    return {
      shoot: async (url, fullPage, height) => {
        await page.goto(url, { waitUntil: 'load', timeout: TIMEOUT_MS });
        if (fullPage) await page.evaluate(RAW_SCROLL);
        assertPng(await page.screenshot({ type: 'png', fullPage }), { width: SHOT_WIDTH, height });
        return {};
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

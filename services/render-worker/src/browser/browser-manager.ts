import type { Logger } from '@render/logger';
import puppeteer, { type Browser, BrowserContext, type LaunchOptions, type Page } from 'puppeteer-core';
import { guardPageTargets, type PageTargetGuard } from './page-target-guard.ts';

const CLOSE_TIMEOUT_MS = 10_000;

/**
 * The one Chromium of a worker process, shared by every page pool. Launch is single-flight: after a crash
 * every pool waits for the same new browser, and `generation` tells a pool its pages belong to a dead one.
 */
export class BrowserManager {
  private browser: Browser | null = null;
  private launching: Promise<Browser> | null = null;
  private readonly guards = new WeakMap<Browser, PageTargetGuard>();
  private closed = false;
  generation = 0;

  constructor(
    private readonly launchOptions: LaunchOptions,
    private readonly logger: Logger,
    /** Called when Chromium is launched again after the first time (a crash or a lost connection). */
    private readonly onRestart: () => void = () => {},
  ) {}

  /** True while the browser is up (a crashed one is relaunched by the next job that needs it). */
  get connected(): boolean {
    return this.browser?.connected === true;
  }

  get(): Promise<Browser> {
    if (this.browser?.connected) return Promise.resolve(this.browser);
    if (this.closed) return Promise.reject(new Error('render browser is closed'));
    this.launching ??= this.launch().finally(() => {
      this.launching = null;
    });
    return this.launching;
  }

  /** True while pages of `generation` still belong to a live browser. */
  isCurrent(generation: number): boolean {
    return generation === this.generation && this.browser?.connected === true;
  }

  /**
   * Opens a page in the browser or one of its contexts. Pages must be opened here: any other page target
   * (a window a render opened) is closed as soon as it appears; see `guardPageTargets`.
   */
  newPage(owner: Browser | BrowserContext): Promise<Page> {
    const guard = this.guards.get(owner instanceof BrowserContext ? owner.browser() : owner);
    if (!guard) return Promise.reject(new Error('render browser was replaced'));
    return guard.newPage(owner);
  }

  /** See PageTargetGuard.openedWindow. */
  openedWindow(page: Page): boolean {
    return this.guards.get(page.browser())?.openedWindow(page) ?? false;
  }

  private async launch(): Promise<Browser> {
    const old = this.browser;
    this.browser = null;
    old?.process()?.kill('SIGKILL');
    const browser = await puppeteer.launch(this.launchOptions);
    try {
      this.guards.set(browser, await guardPageTargets(browser, this.logger));
    } catch (err) {
      browser.process()?.kill('SIGKILL');
      throw err;
    }
    this.generation += 1;
    const generation = this.generation;
    if (generation > 1) this.onRestart();
    browser.on('disconnected', () => {
      if (!this.closed && this.generation === generation)
        this.logger.error({ generation }, 'chromium disconnected; it will be relaunched on the next job');
    });
    this.browser = browser;
    this.logger.info({ generation, version: await browser.version() }, 'chromium started');
    return browser;
  }

  async close(): Promise<void> {
    this.closed = true;
    const browser = this.browser;
    this.browser = null;
    if (!browser) return;
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('close timed out')), CLOSE_TIMEOUT_MS).unref());
    await Promise.race([browser.close(), timeout]).catch(() => browser.process()?.kill('SIGKILL'));
  }
}

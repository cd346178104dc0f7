import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumLaunchOptions } from '../../src/browser/chromium-args.ts';
import { DEFAULT_FONTCONFIG_FILE } from '../../src/config.ts';

/**
 * One real Chromium, launched as the worker launches it, whose proxy points nowhere: a page under test
 * must not need the network at all (the chart page inlines every library).
 */
export function launchOfflineBrowser(): Promise<Browser> {
  return puppeteer.launch(
    chromiumLaunchOptions({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      sandbox: 'auto',
      proxyUrl: 'http://127.0.0.1:9',
      fontconfig: { file: DEFAULT_FONTCONFIG_FILE, env: process.env },
    }),
  );
}

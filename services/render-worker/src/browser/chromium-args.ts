import { existsSync } from 'node:fs';
import type { LaunchOptions } from 'puppeteer-core';

export interface ChromiumLaunchSettings {
  executablePath: string;
  sandbox: 'auto' | 'on' | 'off';
  /** Every request a page makes goes through this proxy, which enforces the egress policy. */
  proxyUrl: string;
  /**
   * The fontconfig file (system fonts plus the emoji rules, README "Fonts"), and the environment it is added
   * to: Chromium reads FONTCONFIG_FILE from its environment only. Unset or missing file: the system's.
   */
  fontconfig?: { file: string; env: Readonly<Record<string, string | undefined>> };
  /**
   * How long a render may take (RENDER_TIMEOUT_MS). DevTools calls are given longer than that, so a call a
   * page's endless script holds up is ended by the render's deadline (the content's failure, not retried)
   * rather than by puppeteer's protocol timeout (read as the browser failing, and retried).
   */
  renderTimeoutMs?: number;
}

export function chromiumLaunchOptions(settings: ChromiumLaunchSettings): LaunchOptions {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sandbox = settings.sandbox === 'on' || (settings.sandbox === 'auto' && !isRoot);
  const shell = settings.executablePath.includes('headless-shell');
  const { fontconfig } = settings;
  return {
    executablePath: settings.executablePath,
    // The old headless "shell" renders a warm page ~2× faster than new headless for screenshots.
    headless: shell ? 'shell' : true,
    // CDP over a pipe: Chromium exits by itself when the worker dies, even by SIGKILL (a WebSocket
    // connection would leave an orphan browser behind), and it skips WebSocket framing.
    pipe: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    protocolTimeout: Math.max(30_000, (settings.renderTimeoutMs ?? 0) + 10_000),
    ...(fontconfig?.file && existsSync(fontconfig.file) ? { env: { ...fontconfig.env, FONTCONFIG_FILE: fontconfig.file } } : {}),
    args: [
      ...(sandbox ? [] : ['--no-sandbox']),
      '--disable-gpu',
      '--disable-gpu-vsync',
      '--disable-frame-rate-limit',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-default-apps',
      '--disable-extensions',
      '--disable-domain-reliability',
      '--disable-breakpad',
      '--no-first-run',
      '--no-default-browser-check',
      '--mute-audio',
      '--hide-scrollbars',
      '--font-render-hinting=none',
      // A memory bomb in one page then crashes that page in about a second instead of growing for ~13 s
      // towards the machine's limit; no legitimate render needs more.
      '--js-flags=--max-old-space-size=512',
      '--dns-prefetch-disable',
      // Windows a page opens (window.open, target=_blank links and forms) are refused outright: they would
      // outlive the render. Headless shell honours this; new headless ignores it, and there the
      // BrowserManager closes any page it did not open (page-target-guard.ts).
      '--block-new-web-contents',
      // RenderDocument gives every navigation a new frame host, and with it a new compositor frame sink: per
      // screenshot (the job's navigation and its wipe's about:blank, context-reset.ts) ~45 ms more of the
      // browser's, GPU process's and renderer's CPU on 2 cores, half of what a navigation and capture cost.
      // Without it a same-site navigation keeps its frame host, as before RenderDocument; a cross-site one
      // still changes process (site isolation is a separate feature).
      '--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,AutofillServerCommunication,InterestFeedContentSuggestions,RenderDocument',
      `--proxy-server=${settings.proxyUrl}`,
      // Chromium bypasses proxies for loopback by default; "<-loopback>" removes that implicit bypass so
      // 127.0.0.1 and localhost are judged by the egress policy too.
      '--proxy-bypass-list=<-loopback>',
      // WebRTC's UDP does not go through HTTP proxies; forbid the unproxied paths.
      '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    ],
  };
}

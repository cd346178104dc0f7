import type { CDPSession, Protocol } from 'puppeteer-core';

/** The world made when the document's is not there (a frame puppeteer has not set its world up in yet). */
const UTILITY_WORLD = '__render_utility';
/**
 * Puppeteer's own isolated world, which it has Chromium make at the start of every document of its pages
 * (`Page.addScriptToEvaluateOnNewDocument` with this name and its version after it). The name is internal
 * to puppeteer, hence the prefix; should it change, a world is made on first use, as before.
 */
const PUPPETEER_WORLD = '__puppeteer_utility_world__';

/** Each session's isolated world in its current top document, made on first use (or by Chromium, `trackUtilityWorld`). */
const worlds = new WeakMap<CDPSession, number>();

/**
 * Notes the top document's isolated world as Chromium makes it, so that the first call after a navigation
 * (the fonts wait, the cookie-notice look) does not first wait for the two DevTools round trips that make
 * one. The world is puppeteer's: one of our own in every document was one more V8 context made and torn
 * down per document, two per screenshot (the job's page and its wipe's about:blank, context-reset.ts). Without it a
 * repeat screenshot of a page without a banner went from 1.59, 1.57, 1.51, 1.59 × the raw loop to 1.39,
 * 1.44, 1.48, 1.31 (bench, alternated). `top` is the page's top frame (its id stays the same across
 * navigations). For a session with Runtime enabled (the screenshot pages' prepared session,
 * prepared-page.ts), which is told of every world of the page, whichever session had it made.
 */
export function trackUtilityWorld(session: CDPSession, top: string): void {
  session.on('Runtime.executionContextCreated', ({ context }: Protocol.Runtime.ExecutionContextCreatedEvent) => {
    const frameId = (context.auxData as { frameId?: string } | undefined)?.frameId;
    if (context.name.startsWith(PUPPETEER_WORLD) && frameId === top) worlds.set(session, context.id);
  });
  session.on('Runtime.executionContextDestroyed', ({ executionContextId }: Protocol.Runtime.ExecutionContextDestroyedEvent) => {
    if (worlds.get(session) === executionContextId) worlds.delete(session);
  });
  session.on('Runtime.executionContextsCleared', () => worlds.delete(session));
}

async function createWorld(session: CDPSession): Promise<number | undefined> {
  const world = await session
    .send('Page.getFrameTree')
    .then(({ frameTree }) => session.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: UTILITY_WORLD }))
    .catch(() => undefined);
  if (world) worlds.set(session, world.executionContextId);
  return world?.executionContextId;
}

/** The session's isolated world in its current top document (made on first use); undefined when none can be had. */
export async function utilityWorld(session: CDPSession): Promise<number | undefined> {
  return worlds.get(session) ?? (await createWorld(session));
}

/**
 * Evaluates `expression` in an isolated world of the top document (the page's DOM, none of its globals), so
 * a page that replaced requestAnimationFrame, scrollTo or Promise cannot stall or fool the renderer's own
 * waits: `contextId` when given (the consent script's world), else a world of our own, made once per
 * document. Falls back to the main world when no world can be had (the document is going away).
 */
export async function evaluateIsolated<T>(session: CDPSession, expression: string, contextId?: number): Promise<T | undefined> {
  let world = contextId ?? worlds.get(session) ?? (await createWorld(session));
  for (let attempt = 0; ; attempt++) {
    const answer = await session
      .send('Runtime.evaluate', {
        expression,
        awaitPromise: true,
        returnByValue: true,
        ...(world === undefined ? {} : { contextId: world }),
      })
      .catch(() => undefined);
    if (answer) return answer.exceptionDetails ? undefined : (answer.result.value as T);
    if (world === undefined || attempt > 0) return undefined;
    // The world went with its document (a page script navigated): one more try in the new document.
    worlds.delete(session);
    world = await createWorld(session);
  }
}

import type { CDPSession, Protocol } from 'puppeteer-core';

const UTILITY_WORLD = '__render_utility';

/** Each session's isolated world in its current top document, made on first use (or by Chromium, `trackUtilityWorld`). */
const worlds = new WeakMap<CDPSession, number>();

/**
 * Has Chromium make the utility world at the start of every document of the session's page, and notes the top
 * document's as it appears, so that the first call after a navigation (the fonts wait, the cookie-notice
 * look) does not first wait for the two DevTools round trips that make one. `top` is the page's top frame
 * (its id stays the same across navigations). For a session with Runtime enabled (the screenshot pages'
 * prepared session, prepared-page.ts); set up between jobs.
 */
export async function trackUtilityWorld(session: CDPSession, top: string): Promise<void> {
  session.on('Runtime.executionContextCreated', ({ context }: Protocol.Runtime.ExecutionContextCreatedEvent) => {
    const frameId = (context.auxData as { frameId?: string } | undefined)?.frameId;
    if (context.name === UTILITY_WORLD && frameId === top) worlds.set(session, context.id);
  });
  session.on('Runtime.executionContextDestroyed', ({ executionContextId }: Protocol.Runtime.ExecutionContextDestroyedEvent) => {
    if (worlds.get(session) === executionContextId) worlds.delete(session);
  });
  session.on('Runtime.executionContextsCleared', () => worlds.delete(session));
  await session.send('Page.addScriptToEvaluateOnNewDocument', { source: '', worldName: UTILITY_WORLD });
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

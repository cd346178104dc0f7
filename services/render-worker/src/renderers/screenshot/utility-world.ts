import type { CDPSession } from 'puppeteer-core';

/** Each session's isolated world in its current top document, made on first use. */
const worlds = new WeakMap<CDPSession, number>();

async function createWorld(session: CDPSession): Promise<number | undefined> {
  const world = await session
    .send('Page.getFrameTree')
    .then(({ frameTree }) => session.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: '__render_utility' }))
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

import type { CDPSession } from 'puppeteer-core';

/**
 * Evaluates `expression` in an isolated world of the top document (the page's DOM, none of its globals), so
 * a page that replaced requestAnimationFrame, scrollTo or Promise cannot stall or fool the renderer's own
 * waits. Falls back to the main world when no world can be made (the document is going away).
 */
export async function evaluateIsolated<T>(session: CDPSession, expression: string): Promise<T | undefined> {
  const contextId = await session
    .send('Page.getFrameTree')
    .then(({ frameTree }) => session.send('Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: '__render_utility' }))
    .then((world) => world.executionContextId)
    .catch(() => undefined);
  const answer = await session
    .send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true, ...(contextId === undefined ? {} : { contextId }) })
    .catch(() => undefined);
  return answer && !answer.exceptionDetails ? (answer.result.value as T) : undefined;
}

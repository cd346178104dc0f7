/** Something a test started and stops in afterAll (a stack, a server, a worker); undefined if it never started. */
export interface Closable {
  close(): unknown;
}

/**
 * Closes each in the order given (callers first: the gateway before the worker and the services it calls),
 * waiting for each, and skips what never started (a failed beforeAll leaves some undefined).
 */
export async function closeInOrder(...things: Array<Closable | undefined>): Promise<void> {
  for (const thing of things) await thing?.close();
}

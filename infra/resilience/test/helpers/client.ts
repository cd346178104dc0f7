/** The public HTTP API as a script calls it: convert with an API key, read the usage. */

export interface Answer {
  status: number;
  contentType: string;
  body: Buffer;
  /** Wall time until the whole answer was read (or the client gave up). */
  ms: number;
  /** Set when no answer came: the request hung past the client's own limit, or the connection failed. */
  error?: string;
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export const isPng = (a: Answer): boolean =>
  a.status === 200 && a.contentType.startsWith('image/png') && a.body.length > 100 && a.body.subarray(0, 8).equals(PNG_MAGIC);

/** The `error.message` of an error answer (the API's error shape), if any. */
export function errorMessage(a: Answer): string | undefined {
  try {
    const parsed = JSON.parse(a.body.toString('utf8')) as { error?: { message?: unknown }; message?: unknown };
    const message = parsed.error?.message ?? parsed.message;
    return typeof message === 'string' && message.trim() ? message : undefined;
  } catch {
    return undefined;
  }
}

export const describe = (a: Answer): string =>
  a.error
    ? `no answer after ${a.ms} ms (${a.error})`
    : `${a.status} in ${a.ms} ms${a.status === 200 ? '' : `: ${a.body.toString('utf8', 0, 200)}`}`;

/** A page whose script busy-loops for `ms`: a job that holds a worker's page that long. */
export const slowHtml = (ms: number, label = 'slow') =>
  `<html><body style="background:#fff"><h1>${label}</h1><script>const end = Date.now() + ${ms}; while (Date.now() < end) {}</script></body></html>`;

export const fastHtml = (label = 'fast') => `<html><body style="background:#fff"><h1>${label}</h1></body></html>`;

export async function convert(gatewayUrl: string, apiKey: string | undefined, html: string, limitMs: number): Promise<Answer> {
  const started = Date.now();
  try {
    const res = await fetch(`${gatewayUrl}/api/html-to-img/convert`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
      body: JSON.stringify({ html, width: 400, height: 300, format: 'png' }),
      signal: AbortSignal.timeout(limitMs),
    });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', body, ms: Date.now() - started };
  } catch (err) {
    const error = err as Error;
    return { status: 0, contentType: '', body: Buffer.alloc(0), ms: Date.now() - started, error: `${error.name}: ${error.message}` };
  }
}

export interface Usage {
  used: number;
  limit: number | null;
  remaining: number | null;
}

export async function usage(gatewayUrl: string, apiKey: string): Promise<Usage> {
  const res = await fetch(`${gatewayUrl}/api/auth/usage`, { headers: { 'x-api-key': apiKey }, signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) throw new Error(`usage: ${res.status} ${await res.text()}`);
  const { data } = (await res.json()) as { data: Usage };
  return data;
}

/**
 * The usage once it has stopped moving (charges are settled after the answer, in small batches): the
 * same `used` read `stableReads` times in a row, `intervalMs` apart.
 */
export async function settledUsage(
  gatewayUrl: string,
  apiKey: string,
  opts: { timeoutMs?: number; intervalMs?: number; stableReads?: number } = {},
): Promise<Usage> {
  const { timeoutMs = 30_000, intervalMs = 500, stableReads = 3 } = opts;
  const deadline = Date.now() + timeoutMs;
  let last: Usage | undefined;
  let same = 0;
  while (Date.now() < deadline) {
    const current = await usage(gatewayUrl, apiKey).catch(() => undefined);
    if (current && last && current.used === last.used) same += 1;
    else same = 0;
    if (current) last = current;
    if (last && same >= stableReads - 1) return last;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  if (last) return last;
  throw new Error('usage never answered');
}

/** The account's latest renders by ledger status (GET /api/auth/usage/recent): charged, reserved, released. */
export async function ledgerStatuses(gatewayUrl: string, apiKey: string): Promise<Record<string, number>> {
  const res = await fetch(`${gatewayUrl}/api/auth/usage/recent?limit=100`, {
    headers: { 'x-api-key': apiKey },
    signal: AbortSignal.timeout(10_000),
  });
  if (res.status !== 200) throw new Error(`usage/recent: ${res.status} ${await res.text()}`);
  const { data } = (await res.json()) as { data: Array<{ status: string }> };
  const counts: Record<string, number> = {};
  for (const row of data) counts[row.status] = (counts[row.status] ?? 0) + 1;
  return counts;
}

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type ApiCall, apiFailure, failure, isObject, type Json, parseJson, text } from './api-answers.ts';
import { bytesToBase64, type ContentBlock, fileContent } from './content-blocks.ts';
import type { RenderToolDefinition, ToolInputSchema } from './tool-types.ts';
import { zipEntries } from './zip-entries.ts';

/**
 * How long a call may wait for its batch, in seconds. MCP clients give up on a tool call after about a
 * minute (the MCP SDKs' default request timeout is 60 s), so the wait ends well before that; a batch still
 * running is answered with its id, and a second call with `batchId` waits again.
 */
export const BATCH_WAIT = { default: 30, max: 50 } as const;
/**
 * Image bytes one answer carries inline, all items together: past it, the remaining finished items are only
 * listed (their files stay in the archive), so that 50 full-page screenshots do not make one huge message.
 */
export const BATCH_INLINE_BYTES = 16 * 1024 * 1024;
const BATCH_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Status polls start quick (a batch of small HTML items ends within a second or two) and slow down to this. */
const POLL_MAX_MS = 2_000;

/** The tool; `bodySchema` is the batch body's (made in tools.ts), to which the wait and a batch id are added. */
export const renderBatchTool = (bodySchema: ToolInputSchema): RenderToolDefinition => ({
  name: 'render_batch',
  title: 'Render up to 50 images in one batch',
  description:
    'Renders up to 50 items of any kind in one call (POST /api/batch): each item is { kind: html, svg, chart, code or screenshot, body: that render tool’s arguments }, ' +
    'and defaults are merged into every item’s body (e.g. { "width": 800, "format": "webp" }). Every item is checked before anything is charged (one credit per image; failed items are given back). ' +
    `Waits up to waitSeconds (default ${BATCH_WAIT.default}, at most ${BATCH_WAIT.max}) for the batch to end, then answers each item’s status as JSON and the finished images in item order ` +
    '(PNG, JPEG and WebP as image content, SVG as text, PDF as an embedded file). ' +
    'A batch still running is answered with its id: call render_batch again with only batchId to wait for the rest, without rendering anything again.',
  inputSchema: batchInputSchema(bodySchema),
  call: { kind: 'batch', path: '/api/batch' },
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
});

function batchInputSchema(body: ToolInputSchema): ToolInputSchema {
  return {
    ...body,
    properties: {
      ...body.properties,
      waitSeconds: {
        type: 'integer',
        minimum: 0,
        maximum: BATCH_WAIT.max,
        default: BATCH_WAIT.default,
        description: 'How long to wait for every item to end before answering (0: answer at once with the batch id and the items’ status)',
      },
      batchId: {
        type: 'string',
        description:
          'The id of a batch this tool started earlier: wait for it again instead of starting one (items and defaults are then not sent)',
      },
    },
    // items or batchId: the gateway says what is wrong with items when they are sent.
    required: (body.required ?? []).filter((name) => name !== 'items'),
  };
}

interface BatchItemView {
  index: number;
  kind: string;
  format: string;
  status: string;
  contentType?: string;
  width?: number;
  height?: number;
  file?: string;
}
interface BatchView {
  id: string;
  status: string;
  total: number;
  done: number;
  failed: number;
  archiveUrl?: string;
  items: BatchItemView[];
}

/** A refusal (the API's or ours) on the way, thrown to the tool's answer as its result. */
class Refusal extends Error {
  constructor(readonly result: CallToolResult) {
    super('refused');
  }
}

const statusPath = (id: string) => `/api/batches/${id}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function waitSecondsOf(value: unknown): number | string {
  if (value === undefined) return BATCH_WAIT.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > BATCH_WAIT.max)
    return `waitSeconds must be a whole number from 0 to ${BATCH_WAIT.max}`;
  return value;
}

/** `POST /api/batch` with the arguments (no webhook: the answer is this tool's), answering the batch's id and credits. */
async function submit(call: ApiCall, args: Json): Promise<{ id: string; credits?: number }> {
  const { webhook: _webhook, batchId: _batchId, waitSeconds: _waitSeconds, ...body } = args;
  const answer = await call('POST', '/api/batch', body);
  if (answer.status >= 400) throw new Refusal(apiFailure(answer));
  const parsed = parseJson(answer.body);
  const data = isObject(parsed) && isObject(parsed.data) ? parsed.data : undefined;
  if (!data || typeof data.id !== 'string')
    throw new Refusal(failure(`The render API answered POST /api/batch without a batch id (HTTP ${answer.status})`));
  return { id: data.id, credits: typeof data.credits === 'number' ? data.credits : undefined };
}

/** The batch's status until it is done or `waitMs` has passed (the last status read either way). */
async function awaitBatch(call: ApiCall, id: string, waitMs: number): Promise<BatchView> {
  const deadline = Date.now() + waitMs;
  let interval = 100;
  for (;;) {
    const answer = await call('GET', statusPath(id));
    if (answer.status >= 400) throw new Refusal(apiFailure(answer));
    const parsed = parseJson(answer.body);
    if (!isObject(parsed) || !isObject(parsed.data) || !Array.isArray(parsed.data.items))
      throw new Refusal(failure(`The render API answered GET ${statusPath(id)} with something unexpected (HTTP ${answer.status})`));
    const view = parsed.data as unknown as BatchView;
    const left = deadline - Date.now();
    if (view.status === 'done' || left <= 0) return view;
    await sleep(Math.min(interval, left));
    interval = Math.min(interval * 2, POLL_MAX_MS);
  }
}

/** The finished items' files from the archive, each under a line naming its item, within BATCH_INLINE_BYTES. */
async function itemFiles(call: ApiCall, view: BatchView): Promise<ContentBlock[]> {
  const answer = await call('GET', `${statusPath(view.id)}/archive`);
  if (answer.status >= 400) return apiFailure(answer).content;
  let files: Map<string, Uint8Array>;
  try {
    files = await zipEntries(answer.body);
  } catch (err) {
    return [text(`The batch’s archive could not be read: ${err instanceof Error ? err.message : String(err)}`)];
  }
  const blocks: ContentBlock[] = [];
  const left: string[] = [];
  let inline = 0;
  for (const item of view.items) {
    const bytes = item.file ? files.get(item.file) : undefined;
    if (item.status !== 'done' || !item.file || !bytes) continue;
    if (inline + bytes.length > BATCH_INLINE_BYTES) {
      left.push(`items[${item.index}]`);
      continue;
    }
    inline += bytes.length;
    const size = item.width && item.height ? ` ${item.width}×${item.height}` : '';
    blocks.push(text(`items[${item.index}] (${item.kind}, ${item.format}${size}): ${item.file}`));
    blocks.push(
      fileContent(`render://render_batch/${view.id}/${item.file}`, item.contentType ?? 'application/octet-stream', bytesToBase64(bytes)),
    );
  }
  if (left.length)
    blocks.push(
      text(
        `Not shown here, to keep this answer small (in the archive, ${view.archiveUrl ?? `${statusPath(view.id)}/archive`}): ${left.join(', ')}.`,
      ),
    );
  return blocks;
}

function headline(view: BatchView, waitSeconds: number, credits: number | undefined): string {
  const counts = `${view.done} of ${view.total} items done, ${view.failed} failed`;
  const charged = credits === undefined ? '' : ` ${credits} credits reserved (each failed item’s given back).`;
  if (view.status === 'done') return `Batch ${view.id} is done: ${counts}.${charged}`;
  return (
    `Batch ${view.id} is still ${view.status} after ${waitSeconds} s (${counts}).${charged} ` +
    `Call render_batch again with { "batchId": "${view.id}" } to wait for the rest.`
  );
}

/**
 * render_batch: starts a batch (or takes `batchId`), waits for it within the bound, then answers a headline,
 * each item's status as JSON (its error for a failed one) with the status and archive paths, and, once the
 * batch is done, the finished items' files from the archive.
 */
export async function runBatch(call: ApiCall, args: Json): Promise<CallToolResult> {
  const waitSeconds = waitSecondsOf(args.waitSeconds);
  if (typeof waitSeconds === 'string') return failure(waitSeconds);
  const { batchId } = args;
  if (batchId !== undefined && (typeof batchId !== 'string' || !BATCH_ID.test(batchId)))
    return failure('batchId must be a batch id as render_batch answered it (a UUID)');
  try {
    const started: { id: string; credits?: number } = typeof batchId === 'string' ? { id: batchId } : await submit(call, args);
    const view = await awaitBatch(call, started.id, waitSeconds * 1000);
    const summary = {
      id: view.id,
      status: view.status,
      total: view.total,
      done: view.done,
      failed: view.failed,
      statusUrl: statusPath(view.id),
      ...(view.archiveUrl ? { archiveUrl: view.archiveUrl } : {}),
      items: view.items,
    };
    const files = view.status === 'done' && view.done > 0 ? await itemFiles(call, view) : [];
    return {
      content: [text(headline(view, waitSeconds, started.credits)), text(JSON.stringify(summary, null, 2)), ...files],
    };
  } catch (err) {
    if (err instanceof Refusal) return err.result;
    return failure(`Could not reach the render API: ${err instanceof Error ? err.message : String(err)}`);
  }
}

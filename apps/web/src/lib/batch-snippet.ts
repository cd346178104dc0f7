/**
 * The playgrounds' "as a batch item" switch: the render call the form makes, written as the one item of a
 * `POST /api/batch` (the same body, less the fields an item cannot use; its webhook becomes the batch's).
 * Apart from request-snippets.ts, so the docs' snippets do not bring in the contracts' batch definitions.
 */
import { BATCH_ITEM_EXCLUDED_FIELDS, BatchItemKinds } from '@render/contracts';
import { AsyncRenderHeads, RenderHeads } from '@render/contracts/route-heads';
import type { SnippetRequest } from './request-snippets.ts';

/** The convert calls by path, as batch item kinds (template generation too, should batches take it). */
const KIND_BY_PATH: Record<string, string> = Object.fromEntries(
  (['html', 'svg', 'chart', 'code', 'screenshot', 'template'] as const).map((kind) => [RenderHeads[kind].url, kind]),
);
const EXCLUDED: readonly string[] = BATCH_ITEM_EXCLUDED_FIELDS;

/** The request as a batch of one item, or undefined for a call a batch cannot hold. */
export function asBatchRequest(request: SnippetRequest): SnippetRequest | undefined {
  const kind = KIND_BY_PATH[request.path];
  if (request.method !== 'POST' || !kind || !(BatchItemKinds as readonly string[]).includes(kind)) return undefined;
  const { webhook } = request.body ?? {};
  const body = Object.fromEntries(Object.entries(request.body ?? {}).filter(([name]) => !EXCLUDED.includes(name)));
  return {
    ...request,
    path: AsyncRenderHeads.createBatch.url,
    body: { items: [{ kind, body }], ...(typeof webhook === 'string' ? { webhook } : {}) },
    // A batch answers JSON (its id); the images come later, as one zip.
    outputFile: undefined,
  };
}

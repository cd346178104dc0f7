import { asBatchRequest } from '../../lib/batch-snippet.ts';
import type { SnippetRequest } from '../../lib/request-snippets.ts';
import { RequestSnippets } from '../request-snippets.tsx';

/**
 * A render call as this site's pages show it: a POST to `baseUrl` (the page's `useOrigin()`, empty while a
 * prerendered page hydrates) with the reader's API key, or a placeholder
 * for one; `outputFile` is where a binary answer is saved (none for a JSON answer).
 */
export function apiKeyPost(
  baseUrl: string,
  path: string,
  body: Record<string, unknown>,
  apiKey: string | null | undefined,
  outputFile?: string,
): SnippetRequest {
  return {
    baseUrl,
    method: 'POST',
    path,
    body,
    auth: { kind: 'apiKey', value: apiKey ?? 'YOUR_API_KEY' },
    outputFile,
  };
}

/** The request the form sends, as code (curl, JavaScript, Python, …) under a title; a render call also as a batch item. */
export function RequestPanel({ title, request }: { title: string; request: SnippetRequest }) {
  return (
    <div>
      <h2 className="mb-2 text-sm font-semibold text-zinc-900">{title}</h2>
      <RequestSnippets request={request} asBatch={asBatchRequest} />
    </div>
  );
}

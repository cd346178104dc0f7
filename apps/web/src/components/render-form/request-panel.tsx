import type { SnippetRequest } from '../../lib/request-snippets.ts';
import { RequestSnippets } from '../request-snippets.tsx';

/** The request the form sends, as code (curl, JavaScript, Python, …) under a title. */
export function RequestPanel({ title, request }: { title: string; request: SnippetRequest }) {
  return (
    <div>
      <h2 className="mb-2 text-sm font-semibold text-zinc-900">{title}</h2>
      <RequestSnippets request={request} />
    </div>
  );
}

import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { WebMessages } from '../../i18n/message-ids.ts';
import { useMessageText } from '../../i18n/use-message.ts';
import { useOrigin } from '../../lib/use-origin.ts';
import { useMarkdown } from '../content/use-markdown.ts';
import type { DocsGuide as Guide } from './docs-sections.ts';

/** Written in the guides where this site's address and the reader's key go (kept whole by the highlighter). */
export const ORIGIN_PLACEHOLDER = '__ORIGIN__';
export const API_KEY_PLACEHOLDER = 'YOUR_API_KEY';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * A guide's build-time HTML made ready to paste: this site's origin and the reader's API key (when signed
 * in) in place of the placeholders, and a copy button on every code block (the design brief: copyable
 * code everywhere). The buttons are plain markup; one click handler on the article copies the block.
 */
export function prepareGuideHtml(html: string, options: { origin: string; apiKey?: string; copyLabel: string }): string {
  let out = html.replaceAll(ORIGIN_PLACEHOLDER, escapeHtml(options.origin));
  if (options.apiKey) out = out.replaceAll(API_KEY_PLACEHOLDER, escapeHtml(options.apiKey));
  // A bar above each block holds its copy button, so the button never covers the first line of code.
  return out
    .replace(
      /<pre\b/g,
      `<div class="my-5 overflow-hidden rounded-lg bg-[#0d1117] [&>pre]:my-0! [&>pre]:rounded-none!"><div class="flex justify-end border-b border-zinc-800 px-2 py-1"><button type="button" data-copy-code class="rounded-md px-2 py-1 text-xs font-medium text-zinc-300 hover:bg-zinc-800 hover:text-white focus-visible:outline focus-visible:outline-2 focus-visible:outline-accent-500">${escapeHtml(options.copyLabel)}</button></div><pre`,
    )
    .replace(/<\/pre>/g, '</pre></div>');
}

/** The SDK, CLI and MCP guides: Markdown under content/docs/<language>/, highlighted at build time. */
export function DocsGuide({ guide, apiKey }: { guide: Guide; apiKey?: string }) {
  const { t } = useTranslation();
  const message = useMessageText();
  const page = useMarkdown('guide', guide);
  const origin = useOrigin();
  const html = useMemo(
    () => (page ? prepareGuideHtml(page.html, { origin, apiKey, copyLabel: t('copy.copy') }) : ''),
    [page, origin, apiKey, t],
  );
  if (!page) return null;
  const copy = async (event: React.MouseEvent) => {
    const button = (event.target as HTMLElement).closest('[data-copy-code]');
    const code = button?.parentElement?.parentElement?.querySelector('pre')?.textContent;
    if (!button || code === undefined || code === null) return;
    try {
      await navigator.clipboard.writeText(code);
      toast.success(message(WebMessages.codeCopied));
    } catch {
      toast.error(t('copy.failed'));
    }
  };
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: the clicks come from the real <button>s inside (keyboard included); this only delegates them.
    <div className="max-w-3xl" onClick={copy} data-testid={`guide-${guide}`}>
      <h2 className="text-2xl font-semibold tracking-tight text-zinc-900">{page.meta.title}</h2>
      {page.meta.description && <p className="mt-2 text-zinc-600">{page.meta.description}</p>}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: HTML produced at build time from repository Markdown. */}
      <div className="prose-content mt-2" dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}

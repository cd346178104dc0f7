import * as Tabs from '@radix-ui/react-tabs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WebMessages } from '../i18n/message-ids.ts';
import { buildSnippet, type SnippetLanguage, type SnippetRequest, snippetLanguagesFor } from '../lib/request-snippets.ts';
import { CopyButton } from './copy-button.tsx';

/**
 * The same request as curl, JavaScript (fetch), Python (requests) and, for render calls, the SDK, each
 * copyable; with `asBatch`, a switch shows it as the one item of a batch instead. The copy button sits in the tab bar, copying the tab shown: over the code it covered the end of
 * long lines (and whatever scrolled under it).
 */
export function RequestSnippets({
  request: single,
  title,
  asBatch,
}: {
  request: SnippetRequest;
  title?: string;
  /** The request as a batch item (the playgrounds' lib/batch-snippet.ts): offers a switch to show that instead. */
  asBatch?: (request: SnippetRequest) => SnippetRequest | undefined;
}) {
  const { t } = useTranslation();
  const [batchChosen, setBatchChosen] = useState(false);
  const batch = asBatch?.(single);
  const request = batchChosen && batch ? batch : single;
  const languages = snippetLanguagesFor(request);
  const [chosen, setChosen] = useState<SnippetLanguage>('curl');
  const current = languages.includes(chosen) ? chosen : languages[0]!;
  return (
    <Tabs.Root
      value={current}
      onValueChange={(value) => setChosen(value as SnippetLanguage)}
      className="overflow-hidden rounded-xl border border-zinc-800 bg-zinc-950"
    >
      {/* Wraps: at phone width the batch switch and the copy button go under the tabs instead of covering them. */}
      <div className="flex flex-wrap items-center justify-between gap-x-2 border-b border-zinc-800 px-2">
        <Tabs.List aria-label={title ?? t('snippets.label')} className="flex min-w-0 overflow-x-auto">
          {languages.map((language) => (
            <Tabs.Trigger
              key={language}
              value={language}
              className="whitespace-nowrap border-b-2 border-transparent px-3 py-2 text-xs font-medium text-zinc-400 hover:text-zinc-100 data-[state=active]:border-accent-500 data-[state=active]:text-white"
            >
              {t(`snippets.${language}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <div className="ml-auto flex shrink-0 items-center gap-2">
          {batch && (
            <label className="flex items-center gap-1.5 whitespace-nowrap text-xs text-zinc-400">
              <input
                type="checkbox"
                checked={batchChosen}
                onChange={(event) => setBatchChosen(event.target.checked)}
                className="h-3.5 w-3.5 accent-accent-500"
              />
              {t('snippets.asBatch')}
            </label>
          )}
          <CopyButton text={buildSnippet(current, request)} toastMessage={WebMessages.codeCopied} className="shrink-0" />
        </div>
      </div>
      {batchChosen && batch && (
        <p className="border-b border-zinc-800 px-4 py-2 text-xs text-zinc-400" data-testid="snippet-batch-hint">
          {t('snippets.asBatchHint')}
        </p>
      )}
      {languages.map((language) => (
        <Tabs.Content key={language} value={language} data-testid={`snippet-${language}`}>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block must be reachable by keyboard (axe: scrollable-region-focusable). */}
          <pre className="overflow-x-auto p-4 font-mono text-xs leading-5 text-zinc-100" tabIndex={0}>
            <code>{buildSnippet(language, request)}</code>
          </pre>
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

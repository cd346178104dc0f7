import * as Tabs from '@radix-ui/react-tabs';
import { useTranslation } from 'react-i18next';
import { buildSnippet, type SnippetRequest, snippetLanguagesFor } from '../lib/request-snippets.ts';
import { CopyButton } from './copy-button.tsx';

/** The same request as curl, JavaScript (fetch), Python (requests) and, for render calls, the SDK, each copyable. */
export function RequestSnippets({ request, title }: { request: SnippetRequest; title?: string }) {
  const { t } = useTranslation();
  const languages = snippetLanguagesFor(request);
  return (
    <Tabs.Root defaultValue="curl" className="overflow-hidden rounded-xl border border-zinc-800 bg-zinc-950">
      <div className="flex items-center justify-between gap-2 border-b border-zinc-800 px-2">
        <Tabs.List aria-label={title ?? t('snippets.label')} className="flex">
          {languages.map((language) => (
            <Tabs.Trigger
              key={language}
              value={language}
              className="border-b-2 border-transparent px-3 py-2 text-xs font-medium text-zinc-400 hover:text-zinc-100 data-[state=active]:border-accent-500 data-[state=active]:text-white"
            >
              {t(`snippets.${language}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
      </div>
      {languages.map((language) => {
        const code = buildSnippet(language, request);
        return (
          <Tabs.Content key={language} value={language} className="relative" data-testid={`snippet-${language}`}>
            <CopyButton text={code} toastMessage="Code copied to clipboard!" className="absolute right-2 top-2 bg-zinc-900" />
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable code block must be reachable by keyboard (axe: scrollable-region-focusable). */}
            <pre className="overflow-x-auto p-4 pr-20 font-mono text-xs leading-5 text-zinc-100" tabIndex={0}>
              <code>{code}</code>
            </pre>
          </Tabs.Content>
        );
      })}
    </Tabs.Root>
  );
}

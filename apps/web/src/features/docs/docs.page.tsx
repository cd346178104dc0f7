import * as Tabs from '@radix-ui/react-tabs';
import { localizeOpenApi } from '@render/contracts';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Download } from 'lucide-react';
import { Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestSnippets } from '../../components/request-snippets.tsx';
import openapi from '../../generated/openapi.json';
import completeCollection from '../../generated/render-api.postman_collection.json?url';
import chartCodeCollection from '../../generated/render-api-chart-code.postman_collection.json?url';
import htmlSvgCollection from '../../generated/render-api-html-svg.postman_collection.json?url';
import { useSession } from '../../lib/session/session.context.tsx';
import { useOrigin } from '../../lib/use-origin.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { DocsGuide } from './docs-guide.tsx';
import { DOCS_SECTIONS, type DocsSection } from './docs-sections.ts';
import { LimitsDoc } from './limits-doc.tsx';
import { examplesOf, type OpenApiDocument, operationsFor } from './openapi-fields.ts';
import { OperationDoc } from './operation-doc.tsx';

const english = openapi as unknown as OpenApiDocument;
let french: OpenApiDocument | undefined;

/** The document in the reader's language: its summaries and field descriptions in French on the French site. */
function useOpenApiDocument(): OpenApiDocument {
  const { i18n } = useTranslation();
  if (i18n.resolvedLanguage !== 'fr') return english;
  french ??= localizeOpenApi(english, 'fr');
  return french;
}

const COLLECTIONS = [
  { href: completeCollection, file: 'render-api.postman_collection.json', key: 'complete' },
  { href: htmlSvgCollection, file: 'render-api-html-svg.postman_collection.json', key: 'htmlSvg' },
  { href: chartCodeCollection, file: 'render-api-chart-code.postman_collection.json', key: 'chartCode' },
] as const;

function PostmanDownloads() {
  const { t } = useTranslation('docs');
  return (
    <section aria-labelledby="postman" className="rounded-xl border border-zinc-200 p-4">
      <h2 id="postman" className="text-sm font-semibold text-zinc-900">
        {t('postman.title')}
      </h2>
      <p className="mt-1 text-xs text-zinc-600">{t('postman.body')}</p>
      <ul className="mt-3 space-y-1.5">
        {COLLECTIONS.map((collection) => (
          <li key={collection.key}>
            <a
              href={collection.href}
              download={collection.file}
              className="inline-flex items-center gap-1.5 text-sm text-accent-700 hover:underline"
            >
              <Download className="size-4" aria-hidden />
              {t(`postman.${collection.key}`)}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The section's file name, with the extension of the format the example asks for (a PDF example writes .pdf). */
function outputFileFor(file: string | undefined, body: Record<string, unknown> | undefined): string | undefined {
  const format = body?.format;
  if (!file || typeof format !== 'string' || format === 'png') return file;
  return file.replace(/\.[a-z]+$/, `.${format === 'jpeg' ? 'jpg' : format}`);
}

function SectionContent({ section }: { section: DocsSection }) {
  const { t } = useTranslation('docs');
  const session = useSession();
  const doc = useOpenApiDocument();
  const operations = operationsFor(doc, section.match);
  const apiKey = session.status === 'signedIn' && session.user.apiKey ? session.user.apiKey : 'YOUR_API_KEY';
  const examples = section.example ? examplesOf(doc, 'post', section.example.path) : [];
  const origin = useOrigin();
  if (section.guide) {
    return (
      <div className="min-w-0">
        <Suspense fallback={<div className="h-64 max-w-3xl animate-pulse rounded-xl bg-zinc-100" aria-busy="true" />}>
          <DocsGuide guide={section.guide} apiKey={apiKey === 'YOUR_API_KEY' ? undefined : apiKey} />
        </Suspense>
        {operations.length > 0 && (
          <div className="mt-10 space-y-10 border-t border-zinc-200 pt-8">
            {operations.map((view) => (
              <OperationDoc key={`${view.method} ${view.path}`} view={view} doc={doc} />
            ))}
          </div>
        )}
      </div>
    );
  }
  return (
    <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_420px]">
      <div className="min-w-0">
        <h2 className="text-2xl font-semibold tracking-tight text-zinc-900">
          {section.translated ? t(`tabs.${section.id}`) : section.label}
        </h2>
        <p className="mt-2 text-zinc-600">{t(`sections.${section.id}.intro`)}</p>
        {section.id === 'screenshot' && (
          <p className="mt-2 text-zinc-600" data-testid="screenshot-video-note">
            {t('sections.screenshot.video')}
          </p>
        )}
        {section.id === 'screenshot' && (
          <p
            className="mt-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
            data-testid="screenshot-offline-note"
          >
            {t('sections.screenshot.offline')}
          </p>
        )}
        {section.id === 'authentication' && (
          <div className="mt-6 space-y-3 rounded-xl border border-zinc-200 bg-zinc-50 p-5 text-sm text-zinc-700">
            <p>{t('auth.apiKey')}</p>
            <p>{t('auth.bearer')}</p>
            <p>{t('auth.anonymous')}</p>
            <LimitsDoc />
          </div>
        )}
        <div className="mt-8 space-y-10">
          {operations.map((view) => (
            <OperationDoc key={`${view.method} ${view.path}`} view={view} doc={doc} />
          ))}
        </div>
      </div>
      {section.example && (
        <aside className="min-w-0 space-y-6 xl:sticky xl:top-20 xl:self-start" aria-label={t('example')}>
          {(examples.length ? examples : [undefined]).map((example) => (
            <div key={example?.key ?? 'default'}>
              <h3 className="mb-2 text-sm font-semibold text-zinc-900">
                {example?.name ? t('exampleNamed', { name: example.name }) : t('example')}
              </h3>
              <RequestSnippets
                title={example?.name ? t('exampleNamed', { name: example.name }) : undefined}
                request={{
                  baseUrl: origin,
                  method: 'POST',
                  path: section.example!.path,
                  body: example?.body,
                  auth: section.id === 'authentication' ? undefined : { kind: 'apiKey', value: apiKey },
                  outputFile: outputFileFor(section.example!.outputFile, example?.body),
                }}
              />
            </div>
          ))}
        </aside>
      )}
    </div>
  );
}

export function DocsPage() {
  const { t } = useTranslation('docs');
  usePageTitle(t('title'));
  const search = useSearch({ strict: false }) as { tab?: string };
  const navigate = useNavigate();
  const current = DOCS_SECTIONS.some((section) => section.id === search.tab) ? (search.tab as string) : 'authentication';
  const tabList = useRef<HTMLDivElement>(null);
  // On phones the tabs scroll sideways: keep the current one in view (a link to ?tab=mcp lands on the last).
  useEffect(() => {
    const list = tabList.current;
    const active = list?.querySelector<HTMLElement>(`[data-tab="${current}"]`);
    if (list && active) list.scrollLeft = active.offsetLeft - list.offsetLeft - 16;
  }, [current]);
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-semibold tracking-tight text-zinc-900">{t('title')}</h1>
      <p className="mt-2 max-w-3xl text-zinc-600">{t('subtitle')}</p>
      <Tabs.Root
        value={current}
        onValueChange={(tab) => void navigate({ to: '/docs', search: { tab } as never, replace: true })}
        orientation="vertical"
        className="mt-8 grid gap-8 lg:grid-cols-[200px_minmax(0,1fr)]"
      >
        <div className="min-w-0 space-y-6">
          <Tabs.List ref={tabList} aria-label={t('sectionsLabel')} className="flex gap-1 overflow-x-auto lg:flex-col">
            {DOCS_SECTIONS.map((section) => (
              <Tabs.Trigger
                key={section.id}
                value={section.id}
                data-tab={section.id}
                className="whitespace-nowrap rounded-md px-3 py-2 text-left text-sm font-medium text-zinc-700 hover:bg-zinc-100 data-[state=active]:bg-accent-50 data-[state=active]:text-accent-800"
              >
                {section.translated ? t(`tabs.${section.id}`) : section.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <PostmanDownloads />
        </div>
        {DOCS_SECTIONS.map((section) => (
          <Tabs.Content key={section.id} value={section.id} className="min-w-0 focus-visible:outline-none">
            <SectionContent section={section} />
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </div>
  );
}

import { fileExtension } from '@render/contracts';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { Play } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { RequestSnippets } from '../../components/request-snippets.tsx';
import { SignInRequiredDialog } from '../../components/sign-in-required-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError, ErrorTexts } from '../../lib/api-client.ts';
import { type RenderedImage, startRender } from '../../lib/render-api.ts';
import { useSession } from '../../lib/session/session.context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { type AcceptedRender, AsyncResultPanel } from './async-result.tsx';
import { OptionField } from './option-field.tsx';
import type { FieldGroup, PlaygroundDefinition, Values } from './playground-definitions.ts';
import { buildRequest, decodeValues, encodeValues, minimalBody, type Problems } from './playground-state.ts';
import { ResultPanel } from './result-panel.tsx';
import { useCodeCatalog } from './use-code-catalog.ts';
import { WebhookField } from './webhook-field.tsx';

const GROUPS: FieldGroup[] = ['content', 'size', 'frame', 'advanced'];

/** Values ↔ `?o=` so a link reproduces the render (debounced: editors change on every key). */
function useShareableValues(definition: PlaygroundDefinition) {
  const search = useSearch({ strict: false }) as { o?: string };
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(() => decodeValues(definition, search.o));
  useEffect(() => {
    const timer = setTimeout(() => {
      const o = encodeValues(definition, values);
      if (o !== search.o) void navigate({ to: '.', search: (o ? { o } : {}) as never, replace: true });
    }, 400);
    return () => clearTimeout(timer);
  }, [values, definition, navigate, search.o]);
  return [values, setValues] as const;
}

/**
 * A converter playground (docs/spec/screens.md, design brief): options grouped on the left, the real render on the
 * right, the same request as code under it. Driven by one definition per page.
 */
export function Playground({ definition }: { definition: PlaygroundDefinition }) {
  const { t } = useTranslation('playground');
  const text = useMessageText();
  const session = useSession();
  usePageTitle(t(`pages.${definition.id}.title`));
  const [values, setValues] = useShareableValues(definition);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const [useApiKey, setUseApiKey] = useState(false);
  const [signInOpen, setSignInOpen] = useState(false);
  const [image, setImage] = useState<RenderedImage | null>(null);
  // Not among the shareable values: a webhook belongs to the signed-in account, not to a link.
  const [webhook, setWebhook] = useState('');
  const [accepted, setAccepted] = useState<AcceptedRender | null>(null);
  const [busy, setBusy] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const catalog = useCodeCatalog(definition.id === 'code');

  const signedIn = session.status === 'signedIn';
  const apiKey = signedIn ? session.user.apiKey : null;
  // A webhook render needs the account's credentials: the field works only while the request carries the key.
  const webhookEnabled = signedIn && useApiKey && Boolean(apiKey);
  const sentWebhook = webhookEnabled ? webhook : undefined;
  const { body, problems } = useMemo(() => buildRequest(definition, values, { webhook: sentWebhook }), [definition, values, sentWebhook]);
  const visibleProblems: Problems = Object.fromEntries(Object.entries(problems).filter(([name]) => showAll || touched.has(name)));

  const change = (name: string, value: string | boolean) => {
    setValues((current) => {
      const next = { ...current, [name]: value };
      return definition.onChange ? definition.onChange(name, next) : next;
    });
  };
  const blur = (name: string) => setTouched((current) => new Set(current).add(name));

  const toggleApiKey = (checked: boolean) => {
    if (checked && session.status !== 'signedIn') {
      setSignInOpen(true);
      return;
    }
    setUseApiKey(checked);
  };

  const generate = useCallback(async () => {
    setShowAll(true);
    if (Object.keys(problems).length > 0) return;
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setBusy(true);
    try {
      const key = useApiKey && apiKey ? apiKey : undefined;
      const outcome = await startRender({
        path: definition.endpoint,
        body,
        outputField: definition.outputField,
        apiKey: key,
        signal: current.signal,
      });
      if (outcome.kind === 'accepted') {
        setImage(null);
        setAccepted({ render: outcome.render, apiKey: key });
      } else {
        setAccepted(null);
        setImage(outcome.image);
      }
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') return;
      // docs/spec/errors.md: the server's message, the connection message when nothing answered, else this page's failure text.
      const useOwn = error instanceof ApiError && (error.status === 0 || error.message !== ErrorTexts.generic);
      toast.error(text(useOwn ? error : definition.failureMessage));
    } finally {
      if (controller.current === current) setBusy(false);
    }
  }, [problems, definition, body, useApiKey, apiKey, text]);

  useEffect(() => () => controller.current?.abort(), []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      void generate();
    }
  };

  const optionsFor = (name: string) =>
    definition.id === 'code' && catalog.data
      ? name === 'language'
        ? catalog.data.languages
        : name === 'theme'
          ? catalog.data.themes
          : undefined
      : undefined;
  const snippetBody = { ...minimalBody(definition, body) };
  const outputFormat = String(body.format ?? 'png');

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl/Cmd+Enter anywhere in the playground runs Generate.
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6" onKeyDown={onKeyDown}>
      <header className="max-w-3xl">
        <h1 className="text-3xl font-semibold tracking-tight text-zinc-900">{t(`pages.${definition.id}.title`)}</h1>
        <p className="mt-2 text-zinc-600">{t(`pages.${definition.id}.subtitle`)}</p>
      </header>
      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,440px)_minmax(0,1fr)]">
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void generate();
          }}
          className="space-y-6"
          aria-label={t('optionsLabel')}
        >
          {GROUPS.map((group) => {
            const fields = definition.fields.filter((field) => field.group === group && (!field.visible || field.visible(values)));
            if (!fields.length) return null;
            return (
              <fieldset key={group} className="rounded-xl border border-zinc-200 bg-white p-4">
                <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-zinc-600">{t(`groups.${group}`)}</legend>
                <div className="grid gap-4 sm:grid-cols-2">
                  {fields.map((field) => (
                    <OptionField
                      key={field.name}
                      pageId={definition.id}
                      field={field}
                      values={values}
                      options={optionsFor(field.name)}
                      error={visibleProblems[field.name]}
                      onChange={change}
                      onBlur={blur}
                    />
                  ))}
                  {group === 'advanced' && signedIn && (
                    <WebhookField
                      value={webhook}
                      enabled={webhookEnabled}
                      error={visibleProblems.webhook}
                      onChange={setWebhook}
                      onBlur={() => blur('webhook')}
                    />
                  )}
                </div>
              </fieldset>
            );
          })}
          <div className="flex flex-wrap items-center justify-between gap-3">
            <label className="flex items-center gap-2 text-sm text-zinc-800">
              <input
                type="checkbox"
                name="useApiKey"
                checked={useApiKey}
                onChange={(event) => toggleApiKey(event.target.checked)}
                className="size-4 accent-accent-600"
              />
              {t('useApiKey')}
            </label>
            <Button type="submit" busy={busy} data-testid="generate-button" title={t('generateShortcut')}>
              {!busy && <Play className="size-4" aria-hidden />}
              {t('generate')}
            </Button>
          </div>
        </form>
        <div className="min-w-0 space-y-6 lg:sticky lg:top-20 lg:self-start">
          {accepted ? (
            <AsyncResultPanel key={accepted.render.id} accepted={accepted} fileBase={`render-${definition.id}`} />
          ) : (
            <ResultPanel image={image} busy={busy} fileBase={`render-${definition.id}`} />
          )}
          <div>
            <h2 className="mb-2 text-sm font-semibold text-zinc-900">{t('requestTitle')}</h2>
            <RequestSnippets
              request={{
                baseUrl: window.location.origin,
                method: 'POST',
                path: definition.endpoint,
                body: snippetBody,
                auth: { kind: 'apiKey', value: apiKey ?? 'YOUR_API_KEY' },
                // A webhook call answers JSON (202 with the render id), as a JSON output does.
                outputFile:
                  body.webhook !== undefined || body[definition.outputField] === 'json'
                    ? undefined
                    : `image.${fileExtension(outputFormat)}`,
              }}
            />
          </div>
        </div>
      </div>
      <SignInRequiredDialog open={signInOpen} onOpenChange={setSignInOpen} />
    </div>
  );
}

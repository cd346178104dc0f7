import { checkFields, fileExtension, LossyFormats, SvgOutputFormats, TemplateDefaults, TemplateGenerateBody } from '@render/contracts';
import { Link, Navigate, useParams, useSearch } from '@tanstack/react-router';
import { Globe, KeyRound, Link2, Lock, Pencil, Play } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { CopyButton } from '../../components/copy-button.tsx';
import { RequestSnippets } from '../../components/request-snippets.tsx';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { FieldError, inputClass } from '../../components/ui/form-field.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError, ErrorTexts } from '../../lib/api-client.ts';
import type { RenderedImage } from '../../lib/render-api.ts';
import { useSession } from '../../lib/session/session.context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { ResultPanel } from '../playground/result-panel.tsx';
import { buildSignedImageUrl } from './signed-url.ts';
import { generateTemplateImage, type TemplateView } from './template-api.ts';
import { TemplateListPage } from './template-list.page.tsx';
import { isHttpUrl, isNumeric } from './template-rules.ts';
import { TemplateLoader } from './template-ui.tsx';

const FORMATS = SvgOutputFormats;
type Format = (typeof FORMATS)[number];
const usesQuality = (format: Format) => LossyFormats.includes(format);

export interface GenerateValues {
  variables: Record<string, string>;
  format: Format;
  quality: string;
  /** Lossless PNG optimisation (PNG only; the signed URL does not take it). */
  optimize?: boolean;
}

/** The problems of the form, worded as the spec and the contracts do. */
export function generateProblems(template: Pick<TemplateView, 'variables'>, values: GenerateValues): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const variable of template.variables) {
    const value = values.variables[variable.name] ?? '';
    if (value === '') continue;
    if (variable.type === 'image' && !isHttpUrl(value))
      problems[variable.name] = 'Please enter a valid URL (including http:// or https://)';
    if (variable.type === 'number' && !isNumeric(value)) problems[variable.name] = 'numberValue';
  }
  if (usesQuality(values.format)) {
    const quality = values.quality.trim() === '' ? values.quality : Number(values.quality);
    const problem = checkFields(TemplateGenerateBody as never, { quality: Number.isNaN(quality) ? values.quality : quality }).quality;
    if (problem || values.quality.trim() === '') problems.quality = problem ?? 'quality must be between 1 and 100';
  }
  return problems;
}

/** The request body: given values only (missing ones take their defaults), numbers as numbers. */
export function generateBody(template: TemplateView, values: GenerateValues) {
  const variables: Record<string, string | number> = {};
  for (const variable of template.variables) {
    const value = values.variables[variable.name] ?? '';
    if (value === '' || value === variable.defaultValue) continue;
    variables[variable.name] = variable.type === 'number' && isNumeric(value) ? Number(value) : value;
  }
  return {
    templateId: template.id,
    ...(Object.keys(variables).length > 0 ? { variables } : {}),
    format: values.format,
    ...(usesQuality(values.format) ? { quality: Number(values.quality) } : {}),
    ...(values.format === 'png' && values.optimize ? { optimize: true } : {}),
  };
}

/** `/image/generate?templateId=…` (docs/spec/screens.md) goes to the generate page of that template. */
export function ImageGenerateRedirect() {
  const search = useSearch({ strict: false }) as { templateId?: unknown };
  const id = typeof search.templateId === 'string' ? search.templateId : '';
  if (!id) return <Navigate to="/template/list" replace />;
  return <Navigate to="/template/generate/$id" params={{ id }} replace />;
}

/** `/template/generate` without an id shows the list (docs/spec/screens.md). */
export const TemplateGenerateIndexPage = TemplateListPage;

export function TemplateGeneratePage() {
  const { t } = useTranslation('templates');
  const { id } = useParams({ strict: false }) as { id: string };
  return (
    <TemplateLoader id={id} signIn={{ title: t('generate.signInTitle'), body: t('generate.signInBody') }} forbidden="notFound">
      {(template) => <GenerateForm key={template.id} template={template} />}
    </TemplateLoader>
  );
}

function GenerateForm({ template }: { template: TemplateView }) {
  const { t } = useTranslation('templates');
  const message = useMessageText();
  const session = useSession();
  const apiKey = session.status === 'signedIn' ? session.user.apiKey : null;
  usePageTitle(template.name);
  const formId = useId();
  const [values, setValues] = useState<GenerateValues>(() => ({
    variables: Object.fromEntries(template.variables.map((v) => [v.name, v.defaultValue])),
    format: TemplateDefaults.format,
    quality: String(TemplateDefaults.quality),
    optimize: false,
  }));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const [image, setImage] = useState<RenderedImage | null>(null);
  const [busy, setBusy] = useState(false);
  const controller = useRef<AbortController | null>(null);

  const problems = useMemo(() => generateProblems(template, values), [template, values]);
  const body = useMemo(() => generateBody(template, values), [template, values]);
  const shown = (name: string) => (showAll || touched.has(name) ? problems[name] : undefined);
  const problemText = (problem: string | undefined) =>
    problem === 'numberValue' ? t('generate.numberValue') : problem ? message(problem) : undefined;

  const generate = useCallback(async () => {
    setShowAll(true);
    if (Object.keys(problems).length > 0) return;
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setBusy(true);
    try {
      setImage(await generateTemplateImage({ ...body, signal: current.signal }));
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') return;
      const own = error instanceof ApiError && (error.status === 0 || error.message !== ErrorTexts.generic);
      toast.error(message(own ? error : 'Failed to generate image'));
    } finally {
      if (controller.current === current) setBusy(false);
    }
  }, [problems, body, message]);
  useEffect(() => () => controller.current?.abort(), []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      void generate();
    }
  };
  const setVariable = (name: string, value: string) => setValues((v) => ({ ...v, variables: { ...v.variables, [name]: value } }));
  const blur = (name: string) => setTouched((current) => new Set(current).add(name));

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl/Cmd+Enter anywhere on the page runs Generate.
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6" onKeyDown={onKeyDown}>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 max-w-3xl">
          <p className="text-sm text-zinc-600">
            <Link to="/template/list" className="hover:underline">
              {t('list.title')}
            </Link>
          </p>
          <h1 className="mt-1 break-words text-3xl font-semibold tracking-tight text-zinc-900">{template.name}</h1>
          <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-600">
            <span>{`${template.width} × ${template.height}`}</span>
            <span className="inline-flex items-center gap-1">
              {template.isPublic ? <Globe className="size-3.5" aria-hidden /> : <Lock className="size-3.5" aria-hidden />}
              {template.isPublic ? t('card.public') : t('card.private')}
            </span>
            <span>{t('generate.by', { name: template.creatorName })}</span>
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <span data-testid="copy-template-id">
            <CopyButton text={template.id} toastMessage="Template ID copied to clipboard" label={t('generate.copyId')} tone="light" />
          </span>
          {template.isOwner && !template.isPublic && (
            <Link to="/template/edit/$id" params={{ id: template.id }} className={buttonClass('secondary', 'px-3! py-1.5!')}>
              <Pencil className="size-4" aria-hidden />
              {t('card.editShort')}
            </Link>
          )}
        </div>
      </header>

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,440px)_minmax(0,1fr)]">
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void generate();
          }}
          className="min-w-0 space-y-6"
          aria-label={t('generate.formLabel')}
        >
          <fieldset className="rounded-xl border border-zinc-200 bg-white p-4">
            <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-zinc-600">{t('generate.variables')}</legend>
            {template.variables.length === 0 ? (
              <p className="text-sm text-zinc-600">{t('generate.noVariables')}</p>
            ) : (
              <div className="space-y-4">
                {template.variables.map((variable) => {
                  const fieldId = `${formId}-${variable.name}`;
                  const problem = problemText(shown(variable.name));
                  return (
                    <div key={variable.name}>
                      <label htmlFor={fieldId} className="mb-1.5 flex items-center justify-between gap-2 text-sm font-medium text-zinc-800">
                        <span className="min-w-0 break-all font-mono">{variable.name}</span>
                        <span className="shrink-0 text-xs font-normal text-zinc-600">{t(`variables.types.${variable.type}`)}</span>
                      </label>
                      <input
                        id={fieldId}
                        name={variable.name}
                        type={variable.type === 'image' ? 'url' : 'text'}
                        inputMode={variable.type === 'number' ? 'decimal' : undefined}
                        value={values.variables[variable.name] ?? ''}
                        maxLength={2048}
                        onChange={(event) => setVariable(variable.name, event.target.value)}
                        onBlur={() => blur(variable.name)}
                        placeholder={variable.defaultValue || t(`variables.placeholders.${variable.type}`)}
                        className={inputClass}
                        aria-invalid={problem ? true : undefined}
                        aria-describedby={problem ? `${fieldId}-error` : undefined}
                      />
                      {problem && (
                        <p id={`${fieldId}-error`} className="mt-1.5 text-sm text-red-700" role="alert">
                          {problem}
                        </p>
                      )}
                    </div>
                  );
                })}
              </div>
            )}
          </fieldset>
          <fieldset className="rounded-xl border border-zinc-200 bg-white p-4">
            <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-zinc-600">{t('generate.output')}</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <div>
                <label htmlFor={`${formId}-format`} className="mb-1.5 block text-sm font-medium text-zinc-800">
                  {t('generate.format')}
                </label>
                <select
                  id={`${formId}-format`}
                  name="format"
                  value={values.format}
                  onChange={(event) => setValues((v) => ({ ...v, format: event.target.value as Format }))}
                  className={inputClass}
                >
                  {FORMATS.map((format) => (
                    <option key={format} value={format}>
                      {format.toUpperCase()}
                    </option>
                  ))}
                </select>
              </div>
              {usesQuality(values.format) && (
                <div>
                  <label htmlFor={`${formId}-quality`} className="mb-1.5 block text-sm font-medium text-zinc-800">
                    {t('generate.quality')}
                  </label>
                  <input
                    id={`${formId}-quality`}
                    name="quality"
                    type="number"
                    min={1}
                    max={100}
                    value={values.quality}
                    onChange={(event) => setValues((v) => ({ ...v, quality: event.target.value }))}
                    onBlur={() => blur('quality')}
                    className={inputClass}
                    aria-invalid={shown('quality') ? true : undefined}
                    aria-describedby={shown('quality') ? `${formId}-quality-error` : undefined}
                  />
                  <FieldError id={`${formId}-quality-error`} message={shown('quality')} />
                </div>
              )}
              {values.format === 'png' && (
                <label className="flex items-center gap-2 self-end pb-2 text-sm font-medium text-zinc-800">
                  <input
                    type="checkbox"
                    name="optimize"
                    checked={values.optimize === true}
                    onChange={(event) => setValues((v) => ({ ...v, optimize: event.target.checked }))}
                    className="size-4 rounded border-zinc-300"
                  />
                  {t('generate.optimize')}
                </label>
              )}
            </div>
          </fieldset>
          <div className="flex justify-end">
            <Button type="submit" busy={busy} data-testid="generate-button" title={t('generate.shortcut')}>
              {!busy && <Play className="size-4" aria-hidden />}
              {t('generate.generate')}
            </Button>
          </div>
        </form>

        <div className="min-w-0 space-y-6">
          <ResultPanel image={image} busy={busy} fileBase={`template-${template.id.slice(0, 8)}`} />
          <SignedUrlBuilder template={template} values={values} apiKey={apiKey} />
          <div>
            <h2 className="mb-2 text-sm font-semibold text-zinc-900">{t('generate.request')}</h2>
            <RequestSnippets
              request={{
                baseUrl: window.location.origin,
                method: 'POST',
                path: '/api/template/generate',
                body,
                auth: { kind: 'apiKey', value: apiKey ?? 'YOUR_API_KEY' },
                outputFile: `image.${fileExtension(values.format)}`,
              }}
            />
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * A signed image URL for <img> tags and social meta tags: signed with the owner's API key, so only the
 * owner can make one; others are told to duplicate the template first.
 */
function SignedUrlBuilder({ template, values, apiKey }: { template: TemplateView; values: GenerateValues; apiKey: string | null }) {
  const { t } = useTranslation('templates');
  const [url, setUrl] = useState('');
  const canSign = template.isOwner && Boolean(apiKey);
  const variables = useMemo(() => {
    const out: Record<string, string> = {};
    for (const variable of template.variables) {
      const value = values.variables[variable.name] ?? '';
      if (value !== '' && value !== variable.defaultValue) out[variable.name] = value;
    }
    return out;
  }, [template, values.variables]);
  useEffect(() => {
    if (!canSign || !apiKey) return;
    let live = true;
    const quality = usesQuality(values.format) ? Number(values.quality) : undefined;
    buildSignedImageUrl({ origin: window.location.origin, templateId: template.id, apiKey, variables, format: values.format, quality })
      .then((signed) => live && setUrl(signed))
      .catch(() => live && setUrl(''));
    return () => {
      live = false;
    };
  }, [canSign, apiKey, template.id, variables, values.format, values.quality]);

  return (
    <section aria-labelledby="signed-url-title" className="rounded-xl border border-zinc-200 bg-white p-4" data-testid="signed-url">
      <h2 id="signed-url-title" className="flex items-center gap-2 text-sm font-semibold text-zinc-900">
        <Link2 className="size-4 text-accent-600" aria-hidden />
        {t('signed.title')}
      </h2>
      <p className="mt-1 text-xs text-zinc-600">{t('signed.hint')}</p>
      {!template.isOwner ? (
        <p className="mt-3 text-sm text-zinc-700">{t('signed.notOwner')}</p>
      ) : !apiKey ? (
        <p className="mt-3 flex flex-wrap items-center gap-2 text-sm text-zinc-700">
          <KeyRound className="size-4" aria-hidden />
          {t('signed.noKey')}
          <Link to="/dashboard" className="font-medium">
            {t('signed.dashboard')}
          </Link>
        </p>
      ) : (
        <div className="mt-3 space-y-2">
          <label htmlFor="signed-url-value" className="sr-only">
            {t('signed.title')}
          </label>
          <textarea
            id="signed-url-value"
            readOnly
            value={url}
            rows={3}
            className={`${inputClass} resize-none break-all font-mono text-xs`}
            data-testid="signed-url-value"
          />
          <div className="flex flex-wrap gap-2">
            <CopyButton text={url} toastMessage={t('signed.copied')} label={t('signed.copyUrl')} tone="light" />
            <CopyButton
              text={`<img src="${url}" width="${template.width}" height="${template.height}" alt="${template.name.replace(/"/g, '&quot;')}">`}
              toastMessage={t('signed.copiedTag')}
              label={t('signed.copyTag')}
              tone="light"
            />
          </div>
          <p className="text-xs text-zinc-600">{t('signed.billing')}</p>
        </div>
      )}
    </section>
  );
}

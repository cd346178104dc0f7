import { Link, useBlocker, useNavigate, useParams } from '@tanstack/react-router';
import { AlertCircle, CheckCircle2, Globe, Lock, Play, Plus, Save, Trash2, Wand2 } from 'lucide-react';
import { useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { CodeEditor } from '../../components/ui/code-editor.tsx';
import { FieldError, inputClass } from '../../components/ui/form-field.tsx';
import { PageSpinner, Spinner } from '../../components/ui/spinner.tsx';
import { useMessageText } from '../../i18n/use-message.ts';
import { ApiError, ErrorTexts } from '../../lib/api-client.ts';
import { type RenderedImage, renderImage } from '../../lib/render-api.ts';
import { useSession } from '../../lib/session/session.context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { SizeSelector, type SizeValue } from './size-selector.tsx';
import { type TemplateView, useSaveTemplate, useTemplateAction } from './template-api.ts';
import {
  applyDefaults,
  bindingProblems,
  detectBindings,
  dimensionValue,
  type EditorVariable,
  nameProblem,
  type RuleProblem,
  SVG_MAX_BYTES,
  sizeProblem,
  suggestVariable,
  svgByteLength,
  svgProblem,
} from './template-rules.ts';
import { SignInScreen, SvgImage, TemplateLoader, TemplateStateScreen } from './template-ui.tsx';

const SAMPLE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#1e1b4b"/>
      <stop offset="1" stop-color="#4338ca"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="630" fill="url(#bg)"/>
  <circle cx="1080" cy="90" r="220" fill="#6366f1" opacity="0.25"/>
  <text x="80" y="150" font-family="Liberation Sans, Arial, sans-serif" font-size="28" font-weight="700" fill="#a5b4fc" letter-spacing="4" data-variable="eyebrow">ANNOUNCEMENT</text>
  <text x="80" y="300" font-family="Liberation Sans, Arial, sans-serif" font-size="72" font-weight="700" fill="#ffffff" data-variable="title">Hello, templates</text>
  <text x="80" y="380" font-family="Liberation Sans, Arial, sans-serif" font-size="32" fill="#e0e7ff" data-variable="subtitle">Bind any element with data-variable</text>
</svg>
`;

const SAMPLE_VARIABLES: EditorVariable[] = [
  { name: 'eyebrow', type: 'text', defaultValue: 'ANNOUNCEMENT' },
  { name: 'title', type: 'text', defaultValue: 'Hello, templates' },
  { name: 'subtitle', type: 'text', defaultValue: 'Bind any element with data-variable' },
];

/** A declared variable with a stable key for its row while it is renamed. */
type DraftVariable = EditorVariable & { key: number };
let nextKey = 1;
const withKey = (variable: EditorVariable): DraftVariable => ({ ...variable, key: nextKey++ });

interface Draft {
  name: string;
  svg: string;
  variables: DraftVariable[];
  size: SizeValue;
}

const draftOf = (template: TemplateView): Draft => ({
  name: template.name,
  svg: template.svg,
  variables: template.variables.map((v) => withKey({ name: v.name, type: v.type, defaultValue: v.defaultValue })),
  size: { width: String(template.width), height: String(template.height) },
});

const snapshot = (draft: Draft) => JSON.stringify(draft);

export function TemplateCreatePage() {
  const { t } = useTranslation('templates');
  const session = useSession();
  if (session.status === 'loading') return <PageSpinner />;
  if (session.status !== 'signedIn') return <SignInScreen title={t('editor.signInTitle')} body={t('editor.signInBody')} />;
  return (
    <TemplateEditor
      initial={{ name: '', svg: SAMPLE_SVG, variables: SAMPLE_VARIABLES.map(withKey), size: { width: '1200', height: '630' } }}
    />
  );
}

export function TemplateEditPage() {
  const { t } = useTranslation('templates');
  const { id } = useParams({ strict: false }) as { id: string };
  return (
    <TemplateLoader id={id} signIn={{ title: t('editor.signInTitle'), body: t('editor.signInBody') }} forbidden="forbidden">
      {(template) => <EditableTemplate template={template} />}
    </TemplateLoader>
  );
}

/** Only the owner edits, and only while private (docs/spec/states.md, roles.md). */
function EditableTemplate({ template }: { template: TemplateView }) {
  if (!template.isOwner) return <TemplateStateScreen kind="forbidden" />;
  if (template.isPublic) return <PublicTemplateNotice template={template} />;
  return <TemplateEditor key={template.id} template={template} initial={draftOf(template)} />;
}

/** A public template can no longer be edited (docs/spec/states.md): say so, and offer to use or duplicate it. */
function PublicTemplateNotice({ template }: { template: TemplateView }) {
  const { t } = useTranslation('templates');
  const message = useMessageText();
  const navigate = useNavigate();
  const duplicate = useTemplateAction('duplicate');
  usePageTitle(template.name);
  const copy = async () => {
    try {
      const created = await duplicate.mutateAsync(template.id);
      toast.success(t('toasts.duplicated'));
      if (created) void navigate({ to: '/template/edit/$id', params: { id: created.id } });
    } catch (error) {
      toast.error(message(error));
    }
  };
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center" data-testid="template-public-notice">
      <Globe className="size-8 text-emerald-700" aria-hidden />
      <h1 className="mt-4 text-3xl font-semibold tracking-tight text-zinc-900">{template.name}</h1>
      <p className="mt-3 text-zinc-600">{t('editor.publicNotice')}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-2">
        <Link to="/template/generate/$id" params={{ id: template.id }} className={buttonClass('primary')}>
          <Play className="size-4" aria-hidden />
          {t('card.use')}
        </Link>
        <Button variant="secondary" onClick={() => void copy()} busy={duplicate.isPending}>
          {t('card.duplicateShort')}
        </Button>
      </div>
    </section>
  );
}

/** A problem of the binding rules, worded for the user, with a fix when there is an obvious one. */
function useProblemText() {
  const { t } = useTranslation('templates');
  return (problem: RuleProblem) => t(`rules.${problem.code}`, problem as unknown as Record<string, unknown>);
}

function TemplateEditor({ template, initial }: { template?: TemplateView; initial: Draft }) {
  const { t } = useTranslation('templates');
  const message = useMessageText();
  const navigate = useNavigate();
  const headingId = useId();
  usePageTitle(template ? t('editor.editTitle') : t('editor.createTitle'));
  const [draft, setDraft] = useState<Draft>(initial);
  const saved = useRef(snapshot(initial));
  const dirty = snapshot(draft) !== saved.current;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const [showErrors, setShowErrors] = useState(false);
  const [nameTouched, setNameTouched] = useState(false);
  const [publishOpen, setPublishOpen] = useState(false);
  const save = useSaveTemplate(template?.id);
  const publish = useTemplateAction('publish');

  const deferredSvg = useDeferredValue(draft.svg);
  const detected = useMemo(() => detectBindings(deferredSvg), [deferredSvg]);
  const problems = useMemo(() => {
    const all = bindingProblems(draft.variables, detected);
    return all.filter((problem, index) => all.findIndex((other) => JSON.stringify(other) === JSON.stringify(problem)) === index);
  }, [draft.variables, detected]);
  const problemText = useProblemText();
  const previewSvg = useMemo(
    () => (detected.valid ? applyDefaults(deferredSvg, draft.variables) : ''),
    [deferredSvg, detected, draft.variables],
  );
  const bytes = svgByteLength(draft.svg);

  const fieldProblems = {
    name: nameProblem(draft.name),
    svg: svgProblem(draft.svg) ?? (bytes > SVG_MAX_BYTES ? t('editor.tooLarge', { max: SVG_MAX_BYTES / 1024 }) : undefined),
    width: sizeProblem('width', draft.size.width),
    height: sizeProblem('height', draft.size.height),
  };
  const blocking = Object.values(fieldProblems).some(Boolean) || problems.length > 0;

  const blocker = useBlocker({
    shouldBlockFn: () => dirtyRef.current,
    enableBeforeUnload: () => dirtyRef.current,
    withResolver: true,
  });

  const update = (patch: Partial<Draft>) => setDraft((current) => ({ ...current, ...patch }));
  const setVariable = (index: number, patch: Partial<EditorVariable>) =>
    update({ variables: draft.variables.map((v, i) => (i === index ? { ...v, ...patch } : v)) });
  const declare = (name: string) => update({ variables: [...draft.variables, withKey(suggestVariable(name, detected))] });
  const declareAll = () => {
    const declared = new Set(draft.variables.map((v) => v.name));
    update({
      variables: [
        ...draft.variables,
        ...[...detected.bindings.keys()].filter((n) => !declared.has(n)).map((n) => withKey(suggestVariable(n, detected))),
      ],
    });
  };
  const undeclare = (name: string) => update({ variables: draft.variables.filter((v) => v.name !== name) });

  const onSave = async () => {
    setShowErrors(true);
    setNameTouched(true);
    if (blocking) {
      toast.error(t('editor.fixProblems'));
      return;
    }
    try {
      const result = await save.mutateAsync({
        name: draft.name.trim(),
        width: dimensionValue(draft.size.width) as number,
        height: dimensionValue(draft.size.height) as number,
        svg: draft.svg,
        variables: draft.variables.map((v) => ({ name: v.name, type: v.type, defaultValue: v.defaultValue })),
      });
      // What the service stored (sanitised SVG) is the new saved state.
      const next = draftOf(result);
      saved.current = snapshot(next);
      dirtyRef.current = false;
      setDraft(next);
      toast.success(t('toasts.saved'));
      if (next.svg !== draft.svg) toast.info(t('toasts.sanitised'));
      if (!template) void navigate({ to: '/template/edit/$id', params: { id: result.id }, replace: true });
    } catch (error) {
      toast.error(message(error));
    }
  };

  const onPublish = async () => {
    if (!template) return;
    try {
      await publish.mutateAsync(template.id);
      setPublishOpen(false);
      toast.success(t('toasts.published'));
      void navigate({ to: '/template/generate/$id', params: { id: template.id } });
    } catch (error) {
      toast.error(message(error));
    }
  };

  // Ctrl/Cmd+Enter: the real render of the current SVG (with its defaults) through the API.
  const [rendered, setRendered] = useState<RenderedImage | null>(null);
  const [rendering, setRendering] = useState(false);
  const [view, setView] = useState<'live' | 'api'>('live');
  const controller = useRef<AbortController | null>(null);
  const renderWithApi = useCallback(async () => {
    if (!detected.valid || fieldProblems.width || fieldProblems.height) {
      setShowErrors(true);
      return;
    }
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setRendering(true);
    setView('api');
    try {
      setRendered(
        await renderImage({
          path: '/api/svg-to-img/convert',
          body: { svg: previewSvg, width: Number(draft.size.width), height: Number(draft.size.height), format: 'png' },
          outputField: 'output',
          signal: current.signal,
        }),
      );
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') return;
      const own = error instanceof ApiError && (error.status === 0 || error.message !== ErrorTexts.generic);
      toast.error(message(own ? error : 'Failed to generate image'));
    } finally {
      if (controller.current === current) setRendering(false);
    }
  }, [detected.valid, fieldProblems.width, fieldProblems.height, previewSvg, draft.size, message]);
  useEffect(() => () => controller.current?.abort(), []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      void renderWithApi();
    }
  };

  const declaredNames = new Set(draft.variables.map((v) => v.name));
  const undeclared = [...detected.bindings.keys()].filter((name) => !declaredNames.has(name));

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl/Cmd+Enter anywhere in the editor renders the preview.
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6" onKeyDown={onKeyDown}>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <p className="text-sm text-zinc-600">
            <Link to="/template/list" className="hover:underline">
              {t('list.title')}
            </Link>
          </p>
          <h1 id={headingId} className="mt-1 text-3xl font-semibold tracking-tight text-zinc-900">
            {template ? t('editor.editTitle') : t('editor.createTitle')}
          </h1>
          <p className="mt-1 flex items-center gap-1.5 text-sm text-zinc-600" data-testid="save-state">
            {dirty ? (
              <>
                <AlertCircle className="size-4 text-amber-600" aria-hidden />
                {t('editor.unsaved')}
              </>
            ) : template ? (
              <>
                <CheckCircle2 className="size-4 text-emerald-700" aria-hidden />
                {t('editor.saved')}
              </>
            ) : null}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {template && (
            <>
              <Link to="/template/generate/$id" params={{ id: template.id }} className={buttonClass('secondary')}>
                <Play className="size-4" aria-hidden />
                {t('editor.generate')}
              </Link>
              <Button
                variant="secondary"
                onClick={() => setPublishOpen(true)}
                disabled={dirty}
                title={dirty ? t('editor.saveBeforePublish') : undefined}
                data-testid="publish-button"
              >
                <Globe className="size-4" aria-hidden />
                {t('editor.makePublic')}
              </Button>
            </>
          )}
          <Button onClick={() => void onSave()} busy={save.isPending} data-testid="save-button">
            {!save.isPending && <Save className="size-4" aria-hidden />}
            {t('editor.save')}
          </Button>
        </div>
      </header>

      <div className="mt-6 max-w-xl">
        <label htmlFor="template-name" className="mb-1.5 block text-sm font-medium text-zinc-800">
          {t('editor.name')}
        </label>
        <input
          id="template-name"
          name="name"
          value={draft.name}
          maxLength={100}
          placeholder={t('editor.namePlaceholder')}
          onChange={(event) => update({ name: event.target.value })}
          onBlur={() => setNameTouched(true)}
          className={inputClass}
          aria-invalid={nameTouched && fieldProblems.name ? true : undefined}
          aria-describedby={nameTouched && fieldProblems.name ? 'template-name-error' : undefined}
        />
        <FieldError id="template-name-error" message={nameTouched ? fieldProblems.name : undefined} />
      </div>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <div className="min-w-0">
          <div className="mb-1.5 flex items-center justify-between gap-2">
            <span id="svg-editor-label" className="text-sm font-medium text-zinc-800">
              {t('editor.svg')}
            </span>
            <span className={`text-xs ${bytes > SVG_MAX_BYTES ? 'text-red-700' : 'text-zinc-600'}`}>
              {t('editor.bytes', { size: (bytes / 1024).toFixed(1), max: SVG_MAX_BYTES / 1024 })}
            </span>
          </div>
          <CodeEditor
            value={draft.svg}
            onChange={(svg) => update({ svg })}
            language="xml"
            labelledBy="svg-editor-label"
            describedBy="svg-editor-hint"
            invalid={showErrors && Boolean(fieldProblems.svg)}
            minHeight="28rem"
          />
          <p id="svg-editor-hint" className="mt-1.5 text-xs text-zinc-600">
            {t('editor.svgHint')}
          </p>
          <FieldError id="svg-error" message={showErrors ? fieldProblems.svg : undefined} />
        </div>

        <div className="min-w-0 space-y-6">
          <section aria-labelledby="preview-title" className="overflow-hidden rounded-xl border border-zinc-200 bg-white">
            <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 px-4 py-2">
              <h2 id="preview-title" className="text-sm font-semibold text-zinc-900">
                {t('editor.preview')}
              </h2>
              <div className="flex flex-wrap items-center gap-1">
                {rendered && (
                  <fieldset className="flex rounded-md border border-zinc-300 p-0.5 text-xs">
                    <legend className="sr-only">{t('editor.previewMode')}</legend>
                    {(['live', 'api'] as const).map((mode) => (
                      <button
                        key={mode}
                        type="button"
                        aria-pressed={view === mode}
                        onClick={() => setView(mode)}
                        className={`rounded px-2 py-1 ${view === mode ? 'bg-zinc-900 text-white' : 'text-zinc-700 hover:bg-zinc-100'}`}
                      >
                        {t(`editor.previewModes.${mode}`)}
                      </button>
                    ))}
                  </fieldset>
                )}
                <Button
                  variant="ghost"
                  className="px-2! py-1! text-xs!"
                  onClick={() => void renderWithApi()}
                  busy={rendering}
                  title={t('editor.renderShortcut')}
                  data-testid="render-preview"
                >
                  {!rendering && <Wand2 className="size-3.5" aria-hidden />}
                  {t('editor.renderWithApi')}
                </Button>
              </div>
            </div>
            <div className="flex min-h-64 items-center justify-center bg-[repeating-conic-gradient(#f4f4f5_0_25%,#fff_0_50%)] bg-[length:20px_20px] p-4">
              {view === 'api' && (rendered || rendering) ? (
                rendered ? (
                  <img
                    src={rendered.dataUrl}
                    alt={t('editor.renderedAlt')}
                    className="max-h-[28rem] max-w-full object-contain shadow-sm"
                    data-testid="api-preview"
                  />
                ) : (
                  <Spinner className="size-8 text-zinc-500" />
                )
              ) : detected.valid ? (
                <SvgImage svg={previewSvg} alt={t('editor.previewAlt')} className="max-h-[28rem] max-w-full object-contain shadow-sm" />
              ) : (
                <p className="flex items-center gap-2 text-sm text-zinc-700" data-testid="preview-invalid">
                  <AlertCircle className="size-4 text-red-600" aria-hidden />
                  {t('rules.svgInvalid')}
                </p>
              )}
            </div>
          </section>

          <section aria-labelledby="variables-title" className="rounded-xl border border-zinc-200 bg-white p-4">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id="variables-title" className="text-sm font-semibold text-zinc-900">
                {t('variables.title')}
              </h2>
              {undeclared.length > 1 && (
                <Button variant="secondary" className="px-2.5! py-1! text-xs!" onClick={declareAll}>
                  <Plus className="size-3.5" aria-hidden />
                  {t('variables.declareAll')}
                </Button>
              )}
            </div>
            <p className="mt-1 text-xs text-zinc-600">{t('variables.hint')}</p>
            {draft.variables.length === 0 ? (
              <p className="mt-3 text-sm text-zinc-600">{t('variables.none')}</p>
            ) : (
              <ul className="mt-3 space-y-3" data-testid="variable-list">
                {draft.variables.map((variable, index) => (
                  <li
                    key={variable.key}
                    className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 rounded-md border border-zinc-200 p-3 sm:grid-cols-[minmax(0,1fr)_8rem_minmax(0,1.4fr)_auto]"
                  >
                    <div className="min-w-0">
                      <label htmlFor={`var-name-${index}`} className="sr-only">
                        {t('variables.name')}
                      </label>
                      <input
                        id={`var-name-${index}`}
                        value={variable.name}
                        onChange={(event) => setVariable(index, { name: event.target.value })}
                        className={`${inputClass} font-mono`}
                        placeholder={t('variables.name')}
                      />
                    </div>
                    <div className="sm:order-none order-last col-span-2 sm:col-span-1">
                      <label htmlFor={`var-type-${index}`} className="sr-only">
                        {t('variables.type')}
                      </label>
                      <select
                        id={`var-type-${index}`}
                        value={variable.type}
                        onChange={(event) => setVariable(index, { type: event.target.value as EditorVariable['type'] })}
                        className={inputClass}
                      >
                        {(['text', 'number', 'image'] as const).map((type) => (
                          <option key={type} value={type}>
                            {t(`variables.types.${type}`)}
                          </option>
                        ))}
                      </select>
                    </div>
                    <div className="order-last col-span-2 min-w-0 sm:order-none sm:col-span-1">
                      <label htmlFor={`var-default-${index}`} className="sr-only">
                        {t('variables.defaultFor', { name: variable.name })}
                      </label>
                      <input
                        id={`var-default-${index}`}
                        value={variable.defaultValue}
                        maxLength={2048}
                        inputMode={variable.type === 'number' ? 'decimal' : variable.type === 'image' ? 'url' : undefined}
                        onChange={(event) => setVariable(index, { defaultValue: event.target.value })}
                        className={inputClass}
                        placeholder={t(`variables.placeholders.${variable.type}`)}
                      />
                    </div>
                    <Button
                      variant="ghost"
                      className="px-2! py-1.5! text-red-700"
                      onClick={() => undeclare(variable.name)}
                      aria-label={t('variables.remove', { name: variable.name })}
                      title={t('variables.removeShort')}
                    >
                      <Trash2 className="size-4" aria-hidden />
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            <div className="mt-4" aria-live="polite" data-testid="binding-rules">
              {problems.length === 0 ? (
                <p className="flex items-center gap-1.5 text-sm text-emerald-800">
                  <CheckCircle2 className="size-4" aria-hidden />
                  {t('rules.ok')}
                </p>
              ) : (
                <ul className="space-y-2">
                  {problems.map((problem) => (
                    <li
                      key={JSON.stringify(problem)}
                      className="flex flex-wrap items-start justify-between gap-2 text-sm text-red-700"
                      data-testid="binding-problem"
                    >
                      <span className="flex min-w-0 items-start gap-1.5">
                        <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
                        <span className="min-w-0 break-words">{problemText(problem)}</span>
                      </span>
                      {problem.code === 'undeclared' && (
                        <Button variant="secondary" className="px-2! py-1! text-xs!" onClick={() => declare(problem.name)}>
                          {t('variables.declare', { name: problem.name })}
                        </Button>
                      )}
                      {problem.code === 'unbound' && (
                        <Button variant="secondary" className="px-2! py-1! text-xs!" onClick={() => undeclare(problem.name)}>
                          {t('variables.remove', { name: problem.name })}
                        </Button>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </section>

          <section className="rounded-xl border border-zinc-200 bg-white p-4">
            <SizeSelector value={draft.size} onChange={(size) => update({ size })} showErrors={showErrors} />
          </section>

          {template && (
            <p className="flex items-center gap-1.5 text-xs text-zinc-600">
              <Lock className="size-3.5" aria-hidden />
              {t('editor.privateNote')}
            </p>
          )}
        </div>
      </div>

      <ConfirmDialog
        open={publishOpen}
        onOpenChange={setPublishOpen}
        title={t('publish.title')}
        confirmLabel={t('publish.confirm')}
        onConfirm={() => void onPublish()}
        busy={publish.isPending}
        tone="primary"
      >
        {t('publish.body')}
      </ConfirmDialog>
      <ConfirmDialog
        open={blocker.status === 'blocked'}
        onOpenChange={(open) => !open && blocker.reset?.()}
        title={t('unsaved.title')}
        confirmLabel={t('unsaved.leave')}
        onConfirm={() => blocker.proceed?.()}
      >
        {t('unsaved.body')}
      </ConfirmDialog>
    </div>
  );
}

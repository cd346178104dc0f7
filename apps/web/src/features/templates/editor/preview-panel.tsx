import { AlertCircle, Wand2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { PanelTitle } from '../../../components/ui/panel-title.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { SvgImage } from '../template-ui.tsx';
import type { ApiPreview, PreviewView } from './use-api-preview.ts';
import type { TemplateEditorState } from './use-template-editor.ts';

/** The preview: live (the SVG as an image, defaults applied) or the API's render, with the button that makes one. */
export function PreviewPanel({ editor }: { editor: TemplateEditorState }) {
  const { t } = useTranslation('templates');
  const { rendered, rendering, view, setView, renderWithApi } = editor.preview;
  return (
    <section aria-labelledby="preview-title" className="overflow-hidden rounded-xl border border-zinc-200 bg-white">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-zinc-200 px-4 py-2">
        <PanelTitle id="preview-title" text={t('editor.preview')} />
        <div className="flex flex-wrap items-center gap-1">
          {rendered && <PreviewModeSwitch view={view} onChange={setView} />}
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
        <PreviewImage editor={editor} preview={editor.preview} />
      </div>
    </section>
  );
}

function PreviewModeSwitch({ view, onChange }: { view: PreviewView; onChange: (view: PreviewView) => void }) {
  const { t } = useTranslation('templates');
  return (
    <fieldset className="flex rounded-md border border-zinc-300 p-0.5 text-xs">
      <legend className="sr-only">{t('editor.previewMode')}</legend>
      {(['live', 'api'] as const).map((mode) => (
        <button
          key={mode}
          type="button"
          aria-pressed={view === mode}
          onClick={() => onChange(mode)}
          className={`rounded px-2 py-1 ${view === mode ? 'bg-zinc-900 text-white' : 'text-zinc-700 hover:bg-zinc-100'}`}
        >
          {t(`editor.previewModes.${mode}`)}
        </button>
      ))}
    </fieldset>
  );
}

function PreviewImage({ editor, preview }: { editor: TemplateEditorState; preview: ApiPreview }) {
  const { t } = useTranslation('templates');
  const { rendered, rendering, view } = preview;
  if (view === 'api' && (rendered || rendering)) {
    return rendered ? (
      <img
        src={rendered.dataUrl}
        alt={t('editor.renderedAlt')}
        className="max-h-[28rem] max-w-full object-contain shadow-sm"
        data-testid="api-preview"
      />
    ) : (
      <Spinner className="size-8 text-zinc-500" />
    );
  }
  return editor.detected.valid ? (
    <SvgImage svg={editor.previewSvg} alt={t('editor.previewAlt')} className="max-h-[28rem] max-w-full object-contain shadow-sm" />
  ) : (
    <p className="flex items-center gap-2 text-sm text-zinc-700" data-testid="preview-invalid">
      <AlertCircle className="size-4 text-red-600" aria-hidden />
      {t('rules.svgInvalid')}
    </p>
  );
}

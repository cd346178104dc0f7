import { Link } from '@tanstack/react-router';
import { AlertCircle, CheckCircle2, Globe, Play, Save } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import type { TemplateView } from '../template-api.ts';
import { TemplateListCrumb } from '../template-list-crumb.tsx';
import type { TemplateEditorState } from './use-template-editor.ts';

/** The editor's title, whether the draft is saved, and its actions: generate and publish (saved templates), save. */
export function EditorHeader({ template, editor }: { template?: TemplateView; editor: TemplateEditorState }) {
  const { t } = useTranslation('templates');
  const { dirty } = editor;
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0">
        <TemplateListCrumb />
        <h1 className="mt-1 text-3xl font-semibold tracking-tight text-zinc-900">
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
              onClick={() => editor.setPublishOpen(true)}
              disabled={dirty}
              title={dirty ? t('editor.saveBeforePublish') : undefined}
              data-testid="publish-button"
            >
              <Globe className="size-4" aria-hidden />
              {t('editor.makePublic')}
            </Button>
          </>
        )}
        {editor.saveRefused && (
          <p role="alert" className="flex items-center gap-1.5 text-sm font-medium text-red-700" data-testid="save-refused">
            <AlertCircle className="size-4" aria-hidden />
            {t('editor.fixProblems')}
          </p>
        )}
        <Button onClick={() => void editor.onSave()} busy={editor.saving} data-testid="save-button">
          {!editor.saving && <Save className="size-4" aria-hidden />}
          {t('editor.save')}
        </Button>
      </div>
    </header>
  );
}

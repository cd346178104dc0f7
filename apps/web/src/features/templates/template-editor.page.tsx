import { useParams } from '@tanstack/react-router';
import { Lock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { onCtrlEnter } from '../../components/render-form/use-render-run.ts';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { useSession } from '../../lib/session/session.context.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { type Draft, draftOf, sampleDraft } from './editor/draft.ts';
import { EditorDialogs } from './editor/editor-dialogs.tsx';
import { EditorHeader } from './editor/editor-header.tsx';
import { PreviewPanel } from './editor/preview-panel.tsx';
import { PublicTemplateNotice } from './editor/public-template-notice.tsx';
import { SvgSourcePanel } from './editor/svg-source-panel.tsx';
import { TemplateNameField } from './editor/template-name-field.tsx';
import { useTemplateEditor } from './editor/use-template-editor.ts';
import { VariablesPanel } from './editor/variables-panel.tsx';
import { SizeSelector } from './size-selector.tsx';
import type { TemplateView } from './template-api.ts';
import { SignInScreen, TemplateLoader, TemplateStateScreen } from './template-ui.tsx';

export function TemplateCreatePage() {
  const { t } = useTranslation('templates');
  const session = useSession();
  if (session.status === 'loading') return <PageSpinner />;
  if (session.status !== 'signedIn') return <SignInScreen title={t('editor.signInTitle')} body={t('editor.signInBody')} />;
  return <TemplateEditor initial={sampleDraft()} />;
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

/** The template studio (design brief): the SVG on the left, the preview, variables and size on the right. */
function TemplateEditor({ template, initial }: { template?: TemplateView; initial: Draft }) {
  const { t } = useTranslation('templates');
  usePageTitle(template ? t('editor.editTitle') : t('editor.createTitle'));
  const editor = useTemplateEditor(template, initial);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Ctrl/Cmd+Enter anywhere in the editor renders the preview.
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6" onKeyDown={onCtrlEnter(() => void editor.preview.renderWithApi())}>
      <EditorHeader template={template} editor={editor} />
      <TemplateNameField editor={editor} />
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <SvgSourcePanel editor={editor} />
        <div className="min-w-0 space-y-6">
          <PreviewPanel editor={editor} />
          <VariablesPanel editor={editor} />
          <section className="rounded-xl border border-zinc-200 bg-white p-4">
            <SizeSelector value={editor.draft.size} onChange={(size) => editor.update({ size })} showErrors={editor.showErrors} />
          </section>
          {template && (
            <p className="flex items-center gap-1.5 text-xs text-zinc-600">
              <Lock className="size-3.5" aria-hidden />
              {t('editor.privateNote')}
            </p>
          )}
        </div>
      </div>
      <EditorDialogs editor={editor} />
    </div>
  );
}

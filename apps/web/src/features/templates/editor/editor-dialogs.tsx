import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import type { TemplateEditorState } from './use-template-editor.ts';

/** The editor's two questions: make the template public (cannot be undone), and leave with unsaved changes. */
export function EditorDialogs({ editor }: { editor: TemplateEditorState }) {
  const { t } = useTranslation('templates');
  const { blocker } = editor;
  return (
    <>
      <ConfirmDialog
        open={editor.publishOpen}
        onOpenChange={editor.setPublishOpen}
        title={t('publish.title')}
        confirmLabel={t('publish.confirm')}
        onConfirm={() => void editor.onPublish()}
        busy={editor.publishing}
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
    </>
  );
}

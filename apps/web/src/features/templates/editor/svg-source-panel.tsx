import { useTranslation } from 'react-i18next';
import { CodeEditor } from '../../../components/ui/code-editor.tsx';
import { FieldError } from '../../../components/ui/form-field.tsx';
import { SVG_MAX_BYTES } from '../template-rules.ts';
import type { TemplateEditorState } from './use-template-editor.ts';

/** The SVG source in a code editor, its size against the limit, and its problem once Save was pressed. */
export function SvgSourcePanel({ editor }: { editor: TemplateEditorState }) {
  const { t } = useTranslation('templates');
  const { bytes, showErrors, fieldProblems } = editor;
  return (
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
        value={editor.draft.svg}
        onChange={(svg) => editor.update({ svg })}
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
  );
}

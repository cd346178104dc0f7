import { useTranslation } from 'react-i18next';
import { FieldError, FieldLabel, inputClass } from '../../../components/ui/form-field.tsx';
import type { TemplateEditorState } from './use-template-editor.ts';

/** The template's name, its problem shown once the field was left. */
export function TemplateNameField({ editor }: { editor: TemplateEditorState }) {
  const { t } = useTranslation('templates');
  const problem = editor.nameTouched ? editor.fieldProblems.name : undefined;
  return (
    <div className="mt-6 max-w-xl">
      <FieldLabel htmlFor="template-name" text={t('editor.name')} />
      <input
        id="template-name"
        name="name"
        value={editor.draft.name}
        maxLength={100}
        placeholder={t('editor.namePlaceholder')}
        onChange={(event) => editor.update({ name: event.target.value })}
        onBlur={editor.touchName}
        className={inputClass}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'template-name-error' : undefined}
      />
      <FieldError id="template-name-error" message={problem} />
    </div>
  );
}

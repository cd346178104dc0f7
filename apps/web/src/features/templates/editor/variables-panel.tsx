import { Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button.tsx';
import { FieldLabel, inputClass } from '../../../components/ui/form-field.tsx';
import { PanelTitle } from '../../../components/ui/panel-title.tsx';
import type { EditorVariable } from '../template-rules.ts';
import { BindingRules } from './binding-rules.tsx';
import type { DraftVariable } from './draft.ts';
import type { TemplateEditorState } from './use-template-editor.ts';

/** The declared variables (name, type, default), a button to declare every binding at once, and the binding rules' verdict. */
export function VariablesPanel({ editor }: { editor: TemplateEditorState }) {
  const { t } = useTranslation('templates');
  const { variables } = editor.draft;
  return (
    <section aria-labelledby="variables-title" className="rounded-xl border border-zinc-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <PanelTitle id="variables-title" text={t('variables.title')} />
        {editor.undeclared.length > 1 && (
          <Button variant="secondary" className="px-2.5! py-1! text-xs!" onClick={editor.declareAll}>
            <Plus className="size-3.5" aria-hidden />
            {t('variables.declareAll')}
          </Button>
        )}
      </div>
      <p className="mt-1 text-xs text-zinc-600">{t('variables.hint')}</p>
      {variables.length === 0 ? (
        <p className="mt-3 text-sm text-zinc-600">{t('variables.none')}</p>
      ) : (
        <ul className="mt-3 space-y-3" data-testid="variable-list">
          {variables.map((variable, index) => (
            <VariableRow
              key={variable.key}
              variable={variable}
              index={index}
              onChange={(patch) => editor.setVariable(index, patch)}
              onRemove={() => editor.undeclare(variable.name)}
            />
          ))}
        </ul>
      )}
      <BindingRules problems={editor.problems} onDeclare={editor.declare} onRemove={editor.undeclare} />
    </section>
  );
}

interface VariableRowProps {
  variable: DraftVariable;
  index: number;
  onChange: (patch: Partial<EditorVariable>) => void;
  onRemove: () => void;
}

/** One declared variable: its name, type and default value, and a button to remove it. */
function VariableRow({ variable, index, onChange, onRemove }: VariableRowProps) {
  const { t } = useTranslation('templates');
  return (
    <li className="grid grid-cols-[minmax(0,1fr)_auto] gap-2 rounded-md border border-zinc-200 p-3 sm:grid-cols-[minmax(0,1fr)_8rem_minmax(0,1.4fr)_auto]">
      <div className="min-w-0">
        <FieldLabel htmlFor={`var-name-${index}`} text={t('variables.name')} srOnly />
        <input
          id={`var-name-${index}`}
          value={variable.name}
          onChange={(event) => onChange({ name: event.target.value })}
          className={`${inputClass} font-mono`}
          placeholder={t('variables.name')}
        />
      </div>
      <div className="sm:order-none order-last col-span-2 sm:col-span-1">
        <FieldLabel htmlFor={`var-type-${index}`} text={t('variables.type')} srOnly />
        <select
          id={`var-type-${index}`}
          value={variable.type}
          onChange={(event) => onChange({ type: event.target.value as EditorVariable['type'] })}
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
        <FieldLabel htmlFor={`var-default-${index}`} text={t('variables.defaultFor', { name: variable.name })} srOnly />
        <input
          id={`var-default-${index}`}
          value={variable.defaultValue}
          maxLength={2048}
          inputMode={variable.type === 'number' ? 'decimal' : variable.type === 'image' ? 'url' : undefined}
          onChange={(event) => onChange({ defaultValue: event.target.value })}
          className={inputClass}
          placeholder={t(`variables.placeholders.${variable.type}`)}
        />
      </div>
      <Button
        variant="ghost"
        className="px-2! py-1.5! text-red-700"
        onClick={onRemove}
        aria-label={t('variables.remove', { name: variable.name })}
        title={t('variables.removeShort')}
      >
        <Trash2 className="size-4" aria-hidden />
      </Button>
    </li>
  );
}

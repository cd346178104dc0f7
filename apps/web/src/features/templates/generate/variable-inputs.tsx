import { useTranslation } from 'react-i18next';
import { OptionGroup } from '../../../components/render-form/option-group.tsx';
import { inputClass } from '../../../components/ui/form-field.tsx';
import type { TemplateView } from '../template-api.ts';
import type { GenerateForm } from './use-generate-form.ts';

type TemplateVariable = TemplateView['variables'][number];

/** One input per variable of the template, labelled with its name and type, its default as placeholder. */
export function VariableInputs({ template, form, formId }: { template: TemplateView; form: GenerateForm; formId: string }) {
  const { t } = useTranslation('templates');
  return (
    <OptionGroup legend={t('generate.variables')}>
      {template.variables.length === 0 ? (
        <p className="text-sm text-zinc-600">{t('generate.noVariables')}</p>
      ) : (
        <div className="space-y-4">
          {template.variables.map((variable) => (
            <VariableInput key={variable.name} variable={variable} form={form} fieldId={`${formId}-${variable.name}`} />
          ))}
        </div>
      )}
    </OptionGroup>
  );
}

function VariableInput({ variable, form, fieldId }: { variable: TemplateVariable; form: GenerateForm; fieldId: string }) {
  const { t } = useTranslation('templates');
  const problem = form.problemText(variable.name);
  return (
    <div>
      <label htmlFor={fieldId} className="mb-1.5 flex items-center justify-between gap-2 text-sm font-medium text-zinc-800">
        <span className="min-w-0 break-all font-mono">{variable.name}</span>
        <span className="shrink-0 text-xs font-normal text-zinc-600">{t(`variables.types.${variable.type}`)}</span>
      </label>
      <input
        id={fieldId}
        name={variable.name}
        type={variable.type === 'image' ? 'url' : 'text'}
        inputMode={variable.type === 'number' ? 'decimal' : undefined}
        value={form.values.variables[variable.name] ?? ''}
        maxLength={2048}
        onChange={(event) => form.setVariable(variable.name, event.target.value)}
        onBlur={() => form.blur(variable.name)}
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
}

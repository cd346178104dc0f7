import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeEditor } from '../../components/ui/code-editor.tsx';
import { FieldError, inputClass } from '../../components/ui/form-field.tsx';
import type { FieldDef, Values } from './playground-definitions.ts';

interface OptionFieldProps {
  /** The playground, for hints that differ between pages (a code image's height may be auto). */
  pageId: string;
  field: FieldDef;
  values: Values;
  /** Options for selects whose list comes from the API (code languages and themes). */
  options?: readonly string[];
  error?: string;
  onChange: (name: string, value: string | boolean) => void;
  onBlur: (name: string) => void;
}

/** One API option as a labelled control named after its field. */
export function OptionField({ pageId, field, values, options, error, onChange, onBlur }: OptionFieldProps) {
  const { t } = useTranslation('playground');
  const id = `${field.name}-${useId()}`;
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const value = values[field.name];
  const label = t(`fields.${field.name}`);
  const hint = t(`hints.${pageId}.${field.name}`, { defaultValue: t(`hints.${field.name}`, { defaultValue: '' }) });
  const describedBy = error ? errorId : undefined;

  if (field.kind === 'checkbox') {
    return (
      <div className="flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          name={field.name}
          checked={value === true}
          onChange={(event) => onChange(field.name, event.target.checked)}
          className="mt-0.5 size-4 rounded border-zinc-400 accent-accent-600"
        />
        <label htmlFor={id} className="text-sm text-zinc-800">
          {label}
        </label>
      </div>
    );
  }

  let control: React.ReactNode;
  if (field.kind === 'code' || field.kind === 'json') {
    control = (
      <>
        <CodeEditor
          value={String(value ?? '')}
          onChange={(next) => onChange(field.name, next)}
          onBlur={() => onBlur(field.name)}
          language={field.editorLanguage ?? 'text'}
          labelledBy={labelId}
          describedBy={describedBy}
          invalid={Boolean(error)}
          minHeight={field.kind === 'json' ? '8rem' : '14rem'}
        />
        <input type="hidden" name={field.name} value={String(value ?? '')} />
      </>
    );
  } else if (field.kind === 'select') {
    const list = options ?? field.options?.(values) ?? [];
    control = (
      <select
        id={id}
        name={field.name}
        value={String(value ?? '')}
        onChange={(event) => onChange(field.name, event.target.value)}
        onBlur={() => onBlur(field.name)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={inputClass}
      >
        {list.map((option) => (
          <option key={option} value={option}>
            {field.translateOptions ? t(`options.${field.name}.${option}`) : option}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        id={id}
        name={field.name}
        type={field.kind === 'number' ? 'number' : field.name === 'url' ? 'url' : 'text'}
        inputMode={field.kind === 'number' ? 'decimal' : undefined}
        min={field.min}
        max={field.max}
        step={field.step}
        value={String(value ?? '')}
        onChange={(event) => onChange(field.name, event.target.value)}
        onBlur={() => onBlur(field.name)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={inputClass}
        placeholder={t(`placeholders.${field.name}`, { defaultValue: '' }) || undefined}
      />
    );
  }

  return (
    <div className={field.kind === 'code' || field.kind === 'json' ? 'sm:col-span-2' : ''}>
      {field.kind === 'code' || field.kind === 'json' ? (
        <span id={labelId} className="mb-1.5 block text-sm font-medium text-zinc-800">
          {label}
        </span>
      ) : (
        <label id={labelId} htmlFor={id} className="mb-1.5 block text-sm font-medium text-zinc-800">
          {label}
        </label>
      )}
      {control}
      {hint && !error && <p className="mt-1 text-xs text-zinc-600">{hint}</p>}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

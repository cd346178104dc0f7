import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeEditor } from '../../../components/ui/code-editor.tsx';
import { inputClass } from '../../../components/ui/form-field.tsx';
import type { Values } from '../playground-definitions.ts';
import { HEX_COLOUR } from './gradient-presets.tsx';
import type { ControlProps } from './use-option-labels.ts';

type TextControlProps = ControlProps & { value: string };

/** A text control's value, its edits and blur reported by field name, and its error state. */
const controlProps = ({ field, labels, value, error, onChange, onBlur }: TextControlProps) => ({
  value,
  onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange(field.name, event.target.value),
  onBlur: () => onBlur(field.name),
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? labels.errorId : undefined,
});

/** A colour: the browser's picker beside the hex text. */
export function ColourInput(props: TextControlProps) {
  const { t } = useTranslation('playground');
  const { field, labels, value, onChange, onBlur } = props;
  return (
    <div className="flex gap-2">
      <input
        type="color"
        aria-label={t('pickColour', { field: labels.label })}
        value={HEX_COLOUR.test(value) ? value.toLowerCase() : '#000000'}
        onChange={(event) => onChange(field.name, event.target.value)}
        onBlur={() => onBlur(field.name)}
        className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-zinc-300 bg-white p-1"
      />
      <input
        id={labels.id}
        name={field.name}
        type="text"
        spellCheck={false}
        autoComplete="off"
        {...controlProps(props)}
        className={`${inputClass} font-mono`}
        placeholder={t(`placeholders.${field.name}`, { defaultValue: '' }) || undefined}
      />
    </div>
  );
}

/** Code or JSON in an editor (with a hidden input, so the form holds the field by name). */
export function CodeInput({ field, labels, value, error, onChange, onBlur }: TextControlProps) {
  return (
    <>
      <CodeEditor
        value={value}
        onChange={(next) => onChange(field.name, next)}
        onBlur={() => onBlur(field.name)}
        language={field.editorLanguage ?? 'text'}
        labelledBy={labels.labelId}
        describedBy={error ? labels.errorId : undefined}
        invalid={Boolean(error)}
        minHeight={field.kind === 'json' ? '8rem' : '14rem'}
      />
      <input type="hidden" name={field.name} value={value} />
    </>
  );
}

/** A choice from the field's list (or the one the API gave, for code languages and themes). */
export function SelectInput(props: TextControlProps & { values: Values; options?: readonly string[] }) {
  const { t } = useTranslation('playground');
  const { field, labels, values, options } = props;
  const list = options ?? field.options?.(values) ?? [];
  return (
    <select id={labels.id} name={field.name} {...controlProps(props)} className={inputClass}>
      {list.map((option) => (
        <option key={option} value={option}>
          {field.translateOptions ? t(`options.${field.name}.${option}`) : option}
        </option>
      ))}
    </select>
  );
}

/** Text, a URL or a number. */
export function TextInput(props: TextControlProps) {
  const { t } = useTranslation('playground');
  const { field, labels } = props;
  return (
    <input
      id={labels.id}
      name={field.name}
      type={field.kind === 'number' ? 'number' : field.name === 'url' ? 'url' : 'text'}
      inputMode={field.kind === 'number' ? 'decimal' : undefined}
      min={field.min}
      max={field.max}
      step={field.step}
      {...controlProps(props)}
      className={inputClass}
      placeholder={t(`placeholders.${field.name}`, { defaultValue: '' }) || undefined}
    />
  );
}

import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeEditor } from '../../components/ui/code-editor.tsx';
import { FieldError, inputClass } from '../../components/ui/form-field.tsx';
import { type FieldDef, gradientCss, type Values } from './playground-definitions.ts';

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

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
          aria-describedby={hint ? `${id}-hint` : undefined}
          className="mt-0.5 size-4 rounded border-zinc-400 accent-accent-600"
        />
        <div>
          <label htmlFor={id} className="text-sm text-zinc-800">
            {label}
          </label>
          {hint && (
            <p id={`${id}-hint`} className="mt-0.5 text-xs text-zinc-600">
              {hint}
            </p>
          )}
        </div>
      </div>
    );
  }

  if (field.kind === 'presets') {
    // Native radios: one Tab stop, arrow keys move between swatches, each named for screen readers.
    const { gradientFrom, gradientTo, gradientAngle } = values;
    return (
      <fieldset className="sm:col-span-2">
        <legend className="mb-1.5 block text-sm font-medium text-zinc-800">{label}</legend>
        <div className="flex flex-wrap items-center gap-2">
          {(field.presets ?? []).map((preset) => (
            <label key={preset.id} className="relative cursor-pointer" title={t(`options.${field.name}.${preset.id}`)}>
              <input
                type="radio"
                name={field.name}
                value={preset.id}
                checked={value === preset.id}
                onChange={() => onChange(field.name, preset.id)}
                className="peer sr-only"
              />
              <span className="sr-only">{t(`options.${field.name}.${preset.id}`)}</span>
              <span
                aria-hidden
                className="block size-9 rounded-lg border border-zinc-300 ring-offset-2 peer-checked:ring-2 peer-checked:ring-accent-600 peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-4 peer-focus-visible:outline-accent-700"
                style={{ background: preset.background }}
              />
            </label>
          ))}
          <span
            aria-hidden
            data-testid="gradient-preview"
            className="ml-auto block h-9 w-24 rounded-lg border border-zinc-300"
            style={{
              background:
                typeof gradientFrom === 'string' &&
                HEX_COLOUR.test(gradientFrom) &&
                typeof gradientTo === 'string' &&
                HEX_COLOUR.test(gradientTo)
                  ? gradientCss(gradientFrom, gradientTo, Number(gradientAngle) || 0)
                  : undefined,
            }}
          />
        </div>
        {hint && <p className="mt-1 text-xs text-zinc-600">{hint}</p>}
      </fieldset>
    );
  }

  let control: React.ReactNode;
  if (field.kind === 'color') {
    const text = String(value ?? '');
    control = (
      <div className="flex gap-2">
        <input
          type="color"
          aria-label={t('pickColour', { field: label })}
          value={HEX_COLOUR.test(text) ? text.toLowerCase() : '#000000'}
          onChange={(event) => onChange(field.name, event.target.value)}
          onBlur={() => onBlur(field.name)}
          className="h-10 w-12 shrink-0 cursor-pointer rounded-md border border-zinc-300 bg-white p-1"
        />
        <input
          id={id}
          name={field.name}
          type="text"
          spellCheck={false}
          autoComplete="off"
          value={text}
          onChange={(event) => onChange(field.name, event.target.value)}
          onBlur={() => onBlur(field.name)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`${inputClass} font-mono`}
          placeholder={t(`placeholders.${field.name}`, { defaultValue: '' }) || undefined}
        />
      </div>
    );
  } else if (field.kind === 'code' || field.kind === 'json') {
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

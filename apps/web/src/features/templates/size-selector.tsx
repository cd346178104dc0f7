import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError, inputClass } from '../../components/ui/form-field.tsx';
import { presetOf, SIZE_BOUNDS, SIZE_PRESETS, sizeProblem } from './template-rules.ts';

export interface SizeValue {
  width: string;
  height: string;
}

/**
 * The template's size: a preset (social card 1200×630, square 1080×1080, story 1080×1920) or custom
 * width and height, each 50-4000 px with the contract's message under the field.
 */
export function SizeSelector({
  value,
  onChange,
  showErrors,
}: {
  value: SizeValue;
  onChange: (value: SizeValue) => void;
  /** Show bound problems even before the field was left (after a save attempt). */
  showErrors?: boolean;
}) {
  const { t } = useTranslation('templates');
  const id = useId();
  const preset = presetOf(value.width, value.height);
  const widthProblem = sizeProblem('width', value.width);
  const heightProblem = sizeProblem('height', value.height);
  // Validated on blur (and on save), as every form here: no message while a number is still being typed.
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const visible = (problem: string | undefined, field: string) => (showErrors || touched[field] ? problem : undefined);
  return (
    <fieldset className="space-y-3" data-testid="size-selector">
      <legend className="text-sm font-medium text-zinc-800">{t('size.title')}</legend>
      <div className="flex flex-wrap gap-2" role="radiogroup" aria-label={t('size.presets')}>
        {[...SIZE_PRESETS.map((p) => p.id), 'custom'].map((option) => {
          const spec = SIZE_PRESETS.find((p) => p.id === option);
          const active = preset === option;
          return (
            // biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons reads better than radio inputs here.
            <button
              key={option}
              type="button"
              role="radio"
              aria-checked={active}
              onClick={() => spec && onChange({ width: String(spec.width), height: String(spec.height) })}
              className={`rounded-md border px-3 py-1.5 text-left text-xs ${
                active ? 'border-accent-600 bg-accent-50 text-accent-800' : 'border-zinc-300 bg-white text-zinc-700 hover:bg-zinc-50'
              }`}
            >
              <span className="block font-medium">{t(`size.${option}`)}</span>
              {spec && <span className="block text-zinc-600">{`${spec.width} × ${spec.height}`}</span>}
            </button>
          );
        })}
      </div>
      <div className="grid grid-cols-2 gap-3">
        {(['width', 'height'] as const).map((field) => {
          const problem = visible(field === 'width' ? widthProblem : heightProblem, field);
          const fieldId = `${id}-${field}`;
          return (
            <div key={field}>
              <label htmlFor={fieldId} className="mb-1 block text-xs font-medium text-zinc-700">
                {t(`size.${field}`)}
              </label>
              <input
                id={fieldId}
                name={field}
                type="number"
                inputMode="numeric"
                min={SIZE_BOUNDS.min}
                max={SIZE_BOUNDS.max}
                step={1}
                value={value[field]}
                onChange={(event) => onChange({ ...value, [field]: event.target.value })}
                onBlur={() => setTouched((current) => ({ ...current, [field]: true }))}
                className={inputClass}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${fieldId}-error` : `${id}-hint`}
              />
              <FieldError id={`${fieldId}-error`} message={problem} />
            </div>
          );
        })}
      </div>
      <p id={`${id}-hint`} className="text-xs text-zinc-600">
        {t('size.hint', { min: SIZE_BOUNDS.min, max: SIZE_BOUNDS.max })}
      </p>
    </fieldset>
  );
}

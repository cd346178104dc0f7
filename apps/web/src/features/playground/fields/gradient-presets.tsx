import { useTranslation } from 'react-i18next';
import { gradientCss, type Values } from '../playground-definitions.ts';
import type { ControlProps } from './use-option-labels.ts';

export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** The gradient the current colours make, when both are full hex colours. */
export function gradientPreview({ gradientFrom, gradientTo, gradientAngle }: Values): string | undefined {
  return typeof gradientFrom === 'string' && HEX_COLOUR.test(gradientFrom) && typeof gradientTo === 'string' && HEX_COLOUR.test(gradientTo)
    ? gradientCss(gradientFrom, gradientTo, Number(gradientAngle) || 0)
    : undefined;
}

/**
 * Background swatches and a preview of the custom gradient. Native radios: one Tab stop, arrow keys move
 * between swatches, each named for screen readers.
 */
export function GradientPresets({ field, labels, values, onChange }: ControlProps & { values: Values }) {
  const { t } = useTranslation('playground');
  const value = values[field.name];
  return (
    <fieldset className="sm:col-span-2">
      <legend className="mb-1.5 block text-sm font-medium text-zinc-800">{labels.label}</legend>
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
          style={{ background: gradientPreview(values) }}
        />
      </div>
      {labels.hint && <p className="mt-1 text-xs text-zinc-600">{labels.hint}</p>}
    </fieldset>
  );
}

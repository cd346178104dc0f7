import { useTranslation } from 'react-i18next';
import { OptionGroup } from '../../../components/render-form/option-group.tsx';
import { FieldError, FieldLabel, inputClass } from '../../../components/ui/form-field.tsx';
import { FORMATS, type Format, usesQuality } from './generate-values.ts';
import type { GenerateForm } from './use-generate-form.ts';

/** The output: format, quality for lossy formats, lossless optimisation for PNG. */
export function OutputOptions({ form, formId }: { form: GenerateForm; formId: string }) {
  const { t } = useTranslation('templates');
  const { values, update, shown } = form;
  return (
    <OptionGroup legend={t('generate.output')}>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <FieldLabel htmlFor={`${formId}-format`} text={t('generate.format')} />
          <select
            id={`${formId}-format`}
            name="format"
            value={values.format}
            onChange={(event) => update({ format: event.target.value as Format })}
            className={inputClass}
          >
            {FORMATS.map((format) => (
              <option key={format} value={format}>
                {format.toUpperCase()}
              </option>
            ))}
          </select>
        </div>
        {usesQuality(values.format) && (
          <div>
            <FieldLabel htmlFor={`${formId}-quality`} text={t('generate.quality')} />
            <input
              id={`${formId}-quality`}
              name="quality"
              type="number"
              min={1}
              max={100}
              value={values.quality}
              onChange={(event) => update({ quality: event.target.value })}
              onBlur={() => form.blur('quality')}
              className={inputClass}
              aria-invalid={shown('quality') ? true : undefined}
              aria-describedby={shown('quality') ? `${formId}-quality-error` : undefined}
            />
            <FieldError id={`${formId}-quality-error`} message={shown('quality')} />
          </div>
        )}
        {values.format === 'png' && (
          <label className="flex items-center gap-2 self-end pb-2 text-sm font-medium text-zinc-800">
            <input
              type="checkbox"
              name="optimize"
              checked={values.optimize === true}
              onChange={(event) => update({ optimize: event.target.checked })}
              className="size-4 rounded border-zinc-300"
            />
            {t('generate.optimize')}
          </label>
        )}
      </div>
    </OptionGroup>
  );
}

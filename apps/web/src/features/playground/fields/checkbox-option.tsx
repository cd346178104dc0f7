import type { Values } from '../playground-definitions.ts';
import type { ControlProps } from './use-option-labels.ts';

/** A yes/no option: the box, its label and its hint beside it. */
export function CheckboxOption({ field, labels, values, onChange }: ControlProps & { values: Values }) {
  const { id, label, hint } = labels;
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        name={field.name}
        checked={values[field.name] === true}
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

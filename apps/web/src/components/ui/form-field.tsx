import { forwardRef, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import { useMessageText } from '../../i18n/use-message.ts';

export const inputClass =
  'block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 placeholder:text-zinc-500 focus:border-accent-600 focus:outline-none focus:ring-2 focus:ring-accent-600/30 aria-[invalid=true]:border-red-600';

/** The spec's message under a field, translated when the catalog knows it. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  const text = useMessageText();
  if (!message) return null;
  return (
    <p id={id} className="mt-1.5 text-sm text-red-700" role="alert">
      {text(message)}
    </p>
  );
}

/** A control's label: shown above it, or only to screen readers where the control speaks for itself on screen. */
export function FieldLabel({ htmlFor, text, srOnly = false }: { htmlFor: string; text: ReactNode; srOnly?: boolean }) {
  return (
    <label htmlFor={htmlFor} className={srOnly ? 'sr-only' : 'mb-1.5 block text-sm font-medium text-zinc-800'}>
      {text}
    </label>
  );
}

/** A select's options: each value, shown by its label. */
export function OptionList<T extends string>({ values, label }: { values: readonly T[]; label: (value: T) => string }) {
  return values.map((value) => (
    <option key={value} value={value}>
      {label(value)}
    </option>
  ));
}

interface FieldShellProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}

export function FieldShell({ id, label, hint, error, children }: FieldShellProps) {
  return (
    <div>
      <FieldLabel htmlFor={id} text={label} />
      {children}
      {hint && !error && <p className="mt-1.5 text-xs text-zinc-600">{hint}</p>}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** The given id, else one made from the field's name, unique on the page. */
function useFieldId(id: string | undefined, name: string) {
  const autoId = useId();
  return id ?? `${name}-${autoId}`;
}

/** A text input's or select's id, look and error state (its message is `${id}-error`, under it). */
const controlProps = (fieldId: string, error: string | undefined) => ({
  id: fieldId,
  className: inputClass,
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${fieldId}-error` : undefined,
});

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; hint?: ReactNode; error?: string; name: string };

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField({ label, hint, error, id, ...input }, ref) {
  const fieldId = useFieldId(id, input.name);
  return (
    <FieldShell id={fieldId} label={label} hint={hint} error={error}>
      <input ref={ref} {...controlProps(fieldId, error)} {...input} />
    </FieldShell>
  );
});

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  name: string;
  options: Array<{ value: string; label: string }>;
  placeholder?: string;
};

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(function SelectField(
  { label, hint, error, id, options, placeholder, ...select },
  ref,
) {
  const fieldId = useFieldId(id, select.name);
  return (
    <FieldShell id={fieldId} label={label} hint={hint} error={error}>
      <select ref={ref} {...controlProps(fieldId, error)} {...select}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
});

type CheckboxProps = InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; name: string };

export const Checkbox = forwardRef<HTMLInputElement, CheckboxProps>(function Checkbox({ label, id, ...input }, ref) {
  const fieldId = useFieldId(id, input.name);
  return (
    <div className="flex items-start gap-2">
      <input ref={ref} id={fieldId} type="checkbox" className="mt-0.5 size-4 rounded border-zinc-400 accent-accent-600" {...input} />
      <label htmlFor={fieldId} className="text-sm text-zinc-800">
        {label}
      </label>
    </div>
  );
});

import { checkFields } from '@render/contracts';
import {
  type FieldErrors,
  type FieldValues,
  type Path,
  type RegisterOptions,
  type Resolver,
  type UseFormProps,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { TSchema } from 'typebox';

/** Extra rules after the schema's (confirmation match and the like): field → message, or nothing. */
export type FormRules<T> = (values: T) => Partial<Record<keyof T & string, string | undefined>>;

/**
 * A react-hook-form resolver over a contract schema: the same bounds and messages as the gateway
 * (`checkFields`), then the form's own rules for fields the schema passed. `prepare` turns form values
 * into the request body (empty optional strings dropped, numbers parsed).
 */
export function contractResolver<T extends FieldValues>(
  schema: TSchema,
  rules?: FormRules<T>,
  prepare?: (values: T) => unknown,
): Resolver<T> {
  return async (values) => {
    const body = (prepare ? prepare(values) : values) as Record<string, unknown>;
    const problems: Record<string, string | undefined> = checkFields(schema as never, body);
    // The form's rules word some checks better than the schema (a trimmed name, strength in order): they win.
    for (const [field, message] of Object.entries(rules?.(values) ?? {})) if (message) problems[field] = message as string;
    const errors = Object.fromEntries(
      Object.entries(problems)
        .filter(([, message]) => message)
        .map(([field, message]) => [field, { type: 'contract', message }]),
    ) as FieldErrors<T>;
    return Object.keys(errors).length ? { values: {}, errors } : { values: values, errors: {} };
  };
}

export function useContractForm<T extends FieldValues>(
  schema: TSchema,
  options: UseFormProps<T> & { rules?: FormRules<T>; prepare?: (values: T) => unknown } = {},
) {
  const { rules, prepare, ...formOptions } = options;
  return useForm<T>({ mode: 'onBlur', reValidateMode: 'onChange', resolver: contractResolver(schema, rules, prepare), ...formOptions });
}

/** A field's registration with its message, to spread on a TextField or SelectField (`error` and the input's props). */
export function fieldProps<T extends FieldValues>(form: UseFormReturn<T>, name: Path<T>, options?: RegisterOptions<T, Path<T>>) {
  const error = form.formState.errors[name] as { message?: string } | undefined;
  return { error: error?.message, ...form.register(name, options) };
}

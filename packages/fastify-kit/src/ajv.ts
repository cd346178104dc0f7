/**
 * Ajv settings shared by every service. No type coercion: `"html": 123` or `"width": "wide"` is a client
 * bug and gets a 400 rather than being silently turned into something else. `verbose` gives the error
 * handler the failing schema so it can use the schema's own message.
 */
export const ajvOptions = {
  customOptions: {
    coerceTypes: false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    verbose: true,
    keywords: ['x-messages'] as string[],
  },
} as const;

/** What the user typed in a JSON field, parsed; undefined while it does not parse. A value that is not text is itself. */
export const parsedTyped = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
};

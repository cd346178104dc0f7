/**
 * The `it.each` cases of a required text field left out, empty, blank or not a string: each answers 400 with
 * `message` (the field's "Please enter …").
 */
export const missingTextCases = (field: string, message: string, blank = '   '): Array<[Record<string, unknown>, string]> => [
  [{}, message],
  [{ [field]: '' }, message],
  [{ [field]: blank }, message],
  [{ [field]: 42 }, message],
];

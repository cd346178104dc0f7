// The rules a template's declared variables must follow against its SVG's data-variable bindings: one
// implementation for the templates service (which refuses a save with the first problem) and the web app's
// editor (which lists them all as the user types).
import { xmlForbiddenCharacter } from './svg-document.ts';
import { isPrototypeKeyName, ReservedVariableNames, TemplateLimits, VARIABLE_NAME_PATTERN } from './template.ts';

/** data-variable name → the (lower-case) names of the elements bound to it, in document order. */
export type Bindings = ReadonlyMap<string, readonly string[]>;

export interface DeclaredVariable {
  name: string;
  type: 'text' | 'number' | 'image';
  defaultValue?: string | number;
}

export type BindingProblem =
  | { code: 'tooMany'; max: number }
  | { code: 'duplicate'; name: string }
  | { code: 'invalidName'; name: string }
  | { code: 'prototypeName'; name: string }
  | { code: 'reserved'; name: string }
  | { code: 'unbound'; name: string }
  | { code: 'imageNotOnImage'; name: string; element: string }
  | { code: 'nonImageOnImage'; name: string; type: string }
  | { code: 'forbiddenCharacter'; name: string; character: string; position: number }
  | { code: 'numberDefault'; name: string }
  | { code: 'imageDefault'; name: string }
  | { code: 'undeclared'; name: string };

const NAME = new RegExp(VARIABLE_NAME_PATTERN);

export const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

export const isNumeric = (value: string) => value.trim() !== '' && Number.isFinite(Number(value));

/**
 * One declared variable's problems, in the order they are checked; `seen` holds the names declared before it
 * (this one is added). A duplicate, an invalid or reserved name, or a missing binding ends its checks.
 */
export function variableProblems(variable: DeclaredVariable, bindings: Bindings, seen: Set<string>): BindingProblem[] {
  const { name, type } = variable;
  if (seen.has(name)) return [{ code: 'duplicate', name }];
  seen.add(name);
  if (!NAME.test(name)) return [{ code: 'invalidName', name }];
  if (isPrototypeKeyName(name)) return [{ code: 'prototypeName', name }];
  if ((ReservedVariableNames as readonly string[]).includes(name)) return [{ code: 'reserved', name }];
  const bound = bindings.get(name);
  if (!bound) return [{ code: 'unbound', name }];
  const problems: BindingProblem[] = [];
  const wrong = bound.find((element) => (type === 'image') !== (element === 'image'));
  if (wrong !== undefined) {
    problems.push(type === 'image' ? { code: 'imageNotOnImage', name, element: wrong } : { code: 'nonImageOnImage', name, type });
  }
  const value = variable.defaultValue === undefined ? '' : String(variable.defaultValue);
  if (value === '') return problems;
  // The filled document must stay well-formed XML, and Postgres refuses NUL.
  const forbidden = xmlForbiddenCharacter(value);
  if (forbidden) problems.push({ code: 'forbiddenCharacter', name, character: forbidden.name, position: forbidden.index + 1 });
  else if (type === 'number' && !isNumeric(value)) problems.push({ code: 'numberDefault', name });
  else if (type === 'image' && !isHttpUrl(value)) problems.push({ code: 'imageDefault', name });
  return problems;
}

/** Every problem of the declared variables against the bindings, in the order they are checked. */
export function bindingProblems(variables: readonly DeclaredVariable[], bindings: Bindings): BindingProblem[] {
  const problems: BindingProblem[] = [];
  if (variables.length > TemplateLimits.maxVariables) problems.push({ code: 'tooMany', max: TemplateLimits.maxVariables });
  const seen = new Set<string>();
  for (const variable of variables) problems.push(...variableProblems(variable, bindings, seen));
  for (const name of bindings.keys()) if (!seen.has(name)) problems.push({ code: 'undeclared', name });
  return problems;
}

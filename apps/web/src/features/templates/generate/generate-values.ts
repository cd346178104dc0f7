import { checkFields, LossyFormats, SvgOutputFormats, TemplateDefaults, TemplateGenerateBody } from '@render/contracts';
import type { TemplateView } from '../template-api.ts';
import { isHttpUrl, isNumeric } from '../template-rules.ts';

export const FORMATS = SvgOutputFormats;
export type Format = (typeof FORMATS)[number];
export const usesQuality = (format: Format) => LossyFormats.includes(format);

export interface GenerateValues {
  variables: Record<string, string>;
  format: Format;
  quality: string;
  /** Lossless PNG optimisation (PNG only; the signed URL does not take it). */
  optimize?: boolean;
}

/** The form as it opens: each variable at its default, the contract's default format and quality. */
export const initialValues = (template: Pick<TemplateView, 'variables'>): GenerateValues => ({
  variables: Object.fromEntries(template.variables.map((v) => [v.name, v.defaultValue])),
  format: TemplateDefaults.format,
  quality: String(TemplateDefaults.quality),
  optimize: false,
});

/** The problems of the form, worded as the spec and the contracts do. */
export function generateProblems(template: Pick<TemplateView, 'variables'>, values: GenerateValues): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const variable of template.variables) {
    const value = values.variables[variable.name] ?? '';
    if (value === '') continue;
    if (variable.type === 'image' && !isHttpUrl(value))
      problems[variable.name] = 'Please enter a valid URL (including http:// or https://)';
    if (variable.type === 'number' && !isNumeric(value)) problems[variable.name] = 'numberValue';
  }
  if (usesQuality(values.format)) {
    const quality = values.quality.trim() === '' ? values.quality : Number(values.quality);
    const problem = checkFields(TemplateGenerateBody as never, { quality: Number.isNaN(quality) ? values.quality : quality }).quality;
    if (problem || values.quality.trim() === '') problems.quality = problem ?? 'quality must be between 1 and 100';
  }
  return problems;
}

/** The request body: given values only (missing ones take their defaults), numbers as numbers. */
export function generateBody(template: TemplateView, values: GenerateValues) {
  const variables: Record<string, string | number> = {};
  for (const variable of template.variables) {
    const value = values.variables[variable.name] ?? '';
    if (value === '' || value === variable.defaultValue) continue;
    variables[variable.name] = variable.type === 'number' && isNumeric(value) ? Number(value) : value;
  }
  return {
    templateId: template.id,
    ...(Object.keys(variables).length > 0 ? { variables } : {}),
    format: values.format,
    ...(usesQuality(values.format) ? { quality: Number(values.quality) } : {}),
    ...(values.format === 'png' && values.optimize ? { optimize: true } : {}),
  };
}

/** The variables a signed URL carries: the given values that differ from their defaults, as text. */
export function changedVariables(template: Pick<TemplateView, 'variables'>, given: GenerateValues['variables']) {
  const out: Record<string, string> = {};
  for (const variable of template.variables) {
    const value = given[variable.name] ?? '';
    if (value !== '' && value !== variable.defaultValue) out[variable.name] = value;
  }
  return out;
}

import { FieldError } from '../../components/ui/form-field.tsx';
import { CheckboxOption } from './fields/checkbox-option.tsx';
import { GradientPresets } from './fields/gradient-presets.tsx';
import { CodeInput, ColourInput, SelectInput, TextInput } from './fields/option-controls.tsx';
import { type ControlProps, useOptionLabels } from './fields/use-option-labels.ts';
import type { FieldDef, Values } from './playground-definitions.ts';

interface OptionFieldProps {
  /** The playground, for hints that differ between pages (a code image's height may be auto). */
  pageId: string;
  field: FieldDef;
  values: Values;
  /** Options for selects whose list comes from the API (code languages and themes). */
  options?: readonly string[];
  error?: string;
  onChange: (name: string, value: string | boolean) => void;
  onBlur: (name: string) => void;
}

/** The control for one option, by its kind. */
function OptionControl(props: ControlProps & { values: Values; options?: readonly string[] }) {
  const value = String(props.values[props.field.name] ?? '');
  switch (props.field.kind) {
    case 'color':
      return <ColourInput {...props} value={value} />;
    case 'code':
    case 'json':
      return <CodeInput {...props} value={value} />;
    case 'select':
      return <SelectInput {...props} value={value} />;
    default:
      return <TextInput {...props} value={value} />;
  }
}

/** One API option as a labelled control named after its field. */
export function OptionField({ pageId, field, values, options, error, onChange, onBlur }: OptionFieldProps) {
  const labels = useOptionLabels(pageId, field);
  const control = { field, labels, values, error, onChange, onBlur };
  if (field.kind === 'checkbox') return <CheckboxOption {...control} />;
  if (field.kind === 'presets') return <GradientPresets {...control} />;
  const editor = field.kind === 'code' || field.kind === 'json';
  return (
    <div className={editor ? 'sm:col-span-2' : ''}>
      {editor ? (
        <span id={labels.labelId} className="mb-1.5 block text-sm font-medium text-zinc-800">
          {labels.label}
        </span>
      ) : (
        <label id={labels.labelId} htmlFor={labels.id} className="mb-1.5 block text-sm font-medium text-zinc-800">
          {labels.label}
        </label>
      )}
      <OptionControl {...control} options={options} />
      {labels.hint && !error && <p className="mt-1 text-xs text-zinc-600">{labels.hint}</p>}
      <FieldError id={labels.errorId} message={error} />
    </div>
  );
}

// What a playground's form is made of: its values and the fields that edit them (playground-definitions.ts
// declares each playground's; screenshot-video-fields.ts adds the video ones).
import type { EditorLanguage } from '../../components/ui/editor-language.ts';

/** A form value: text inputs, numbers and JSON hold strings; checkboxes hold booleans. */
export type Values = Record<string, string | boolean>;
/** `color`: one #rrggbb colour (a picker beside its text); `presets`: a choice of swatches that sets other fields. */
export type FieldKind = 'code' | 'json' | 'number' | 'select' | 'checkbox' | 'text' | 'colors' | 'color' | 'presets';
/** `frame`: what surrounds a code window (bar, background, shadow). */
export type FieldGroup = 'content' | 'size' | 'frame' | 'advanced';

export interface FieldDef {
  /** The API field name (also the control's `name`). */
  name: string;
  kind: FieldKind;
  group: FieldGroup;
  options?: (values: Values) => readonly string[];
  /** Translate option labels from `playground:options.<name>.<value>` (else the API value is shown). */
  translateOptions?: boolean;
  editorLanguage?: EditorLanguage;
  min?: number;
  max?: number;
  step?: number;
  visible?: (values: Values) => boolean;
  /** For `presets`: each swatch's id and CSS background. */
  presets?: ReadonlyArray<{ id: string; background: string }>;
}

import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from '../playground-definitions.ts';

/**
 * The ids and texts of one option's control: its label, and its hint (the page's own, e.g. a code image's
 * height may be auto, else the field's, else none).
 */
export function useOptionLabels(pageId: string, field: FieldDef) {
  const { t } = useTranslation('playground');
  const id = `${field.name}-${useId()}`;
  return {
    id,
    labelId: `${id}-label`,
    errorId: `${id}-error`,
    label: t(`fields.${field.name}`),
    hint: t(`hints.${pageId}.${field.name}`, { defaultValue: t(`hints.${field.name}`, { defaultValue: '' }) }),
  };
}

export type OptionLabels = ReturnType<typeof useOptionLabels>;

/** Every control reports its own field by name. */
export interface ControlProps {
  field: FieldDef;
  labels: OptionLabels;
  error?: string;
  onChange: (name: string, value: string | boolean) => void;
  onBlur: (name: string) => void;
}

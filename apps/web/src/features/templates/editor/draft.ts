import type { SizeValue } from '../size-selector.tsx';
import type { TemplateView } from '../template-api.ts';
import type { EditorVariable } from '../template-rules.ts';

const SAMPLE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#1e1b4b"/>
      <stop offset="1" stop-color="#4338ca"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="630" fill="url(#bg)"/>
  <circle cx="1080" cy="90" r="220" fill="#6366f1" opacity="0.25"/>
  <text x="80" y="150" font-family="Liberation Sans, Arial, sans-serif" font-size="28" font-weight="700" fill="#a5b4fc" letter-spacing="4" data-variable="eyebrow">ANNOUNCEMENT</text>
  <text x="80" y="300" font-family="Liberation Sans, Arial, sans-serif" font-size="72" font-weight="700" fill="#ffffff" data-variable="title">Hello, templates</text>
  <text x="80" y="380" font-family="Liberation Sans, Arial, sans-serif" font-size="32" fill="#e0e7ff" data-variable="subtitle">Bind any element with data-variable</text>
</svg>
`;

const SAMPLE_VARIABLES: EditorVariable[] = [
  { name: 'eyebrow', type: 'text', defaultValue: 'ANNOUNCEMENT' },
  { name: 'title', type: 'text', defaultValue: 'Hello, templates' },
  { name: 'subtitle', type: 'text', defaultValue: 'Bind any element with data-variable' },
];

/** A declared variable with a stable key for its row while it is renamed. */
export type DraftVariable = EditorVariable & { key: number };
let nextKey = 1;
export const withKey = (variable: EditorVariable): DraftVariable => ({ ...variable, key: nextKey++ });

/** What the editor holds: the template as the user is shaping it. */
export interface Draft {
  name: string;
  svg: string;
  variables: DraftVariable[];
  size: SizeValue;
}

/** A new template starts from a sample that shows the binding rules at work. */
export const sampleDraft = (): Draft => ({
  name: '',
  svg: SAMPLE_SVG,
  variables: SAMPLE_VARIABLES.map(withKey),
  size: { width: '1200', height: '630' },
});

export const draftOf = (template: TemplateView): Draft => ({
  name: template.name,
  svg: template.svg,
  variables: template.variables.map((v) => withKey({ name: v.name, type: v.type, defaultValue: v.defaultValue })),
  size: { width: String(template.width), height: String(template.height) },
});

export const snapshot = (draft: Draft) => JSON.stringify(draft);

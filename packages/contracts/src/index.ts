export * from './chart.ts';
export * from './code.ts';
export * from './errors.ts';
export * from './render.ts';
export * from './schema-helpers.ts';
export * from './screenshot.ts';
export * from './svg-document.ts';
export * from './template.ts';

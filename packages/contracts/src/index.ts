export * from './errors.ts';
export * from './render.ts';
export * from './schema-helpers.ts';

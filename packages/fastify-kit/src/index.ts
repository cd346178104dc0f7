export { ajvOptions } from './ajv.ts';
export { default as errorHandler, validationMessage } from './error-handler.plugin.ts';

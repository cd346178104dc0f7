export { ajvOptions } from './ajv.ts';
export { default as errorHandler, type PageFallback, validationMessage } from './error-handler.plugin.ts';
export { clientErrorHandler, frameworkErrors } from './framework-errors.ts';
export { INTERNAL_TOKEN_HEADER, requireInternalToken, safeEqual } from './internal-token.ts';
export { listenUntilSignalled } from './listen.ts';
export { RequestLogController, type RequestLogOptions } from './request-log.ts';
export { TokenBuckets } from './token-buckets.ts';

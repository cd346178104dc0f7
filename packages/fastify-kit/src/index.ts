export { Counter, Gauge, Histogram, type Registry } from 'prom-client';
export { ajvOptions } from './ajv.ts';
export { default as errorHandler, type PageFallback, validationMessage } from './error-handler.plugin.ts';
export { type AjvError, bodyFieldErrors, fieldPath } from './field-errors.ts';
export { clientErrorHandler, frameworkErrors } from './framework-errors.ts';
export { default as health, type HealthCheck, type HealthOptions, type HealthState, runHealthChecks } from './health.plugin.ts';
export { INTERNAL_TOKEN_HEADER, requireInternalToken, safeEqual } from './internal-token.ts';
export { listenUntilSignalled } from './listen.ts';
export { default as metrics, HTTP_BUCKETS, type MetricsOptions } from './metrics.plugin.ts';
export { PROBLEM_CONTENT_TYPE, type ProblemOptions, pathOf, problemBody, sendProblem } from './problem.ts';
export { REQUEST_ID_HEADER, requestIdOf, requestIdOptions } from './request-id.ts';
export { RequestLogController, type RequestLogOptions } from './request-log.ts';
export {
  type AccessGuard,
  type AccessGuards,
  type ContractHandler,
  guardFor,
  type ServeOptions,
  servedSchema,
  serveRoute,
} from './serve-route.ts';
export { recordServedRoutes, routeKey, type ServedRoutes } from './served-routes.ts';
export { registerInternalServiceBase, type ServiceServerOptions, serviceServerOptions } from './service-base.ts';
export { MemoryTokenBuckets, TokenBuckets, takeAll } from './token-buckets.ts';

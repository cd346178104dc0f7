export * from './rate-limit.ts';
export * from './redis.ts';
export * from './render-jobs.ts';
export * from './render-reply.ts';
export * from './webhook-jobs.ts';

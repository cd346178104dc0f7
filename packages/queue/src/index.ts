export * from './redis.ts';
export * from './render-jobs.ts';

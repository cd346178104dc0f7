// The account service's stack (@render/test-stack), with this workspace's binding of the real service.
export * from '@render/test-stack/auth-stack';
export { startStack } from './stack.ts';

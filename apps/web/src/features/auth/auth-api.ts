import type { UserView } from '@render/contracts';
import { apiJson } from '../../lib/api-client.ts';

/** The account calls the auth screens make (docs/spec/calls.md), answered through the gateway. */
export interface SessionAnswer {
  message?: string;
  token: string;
  user: UserView;
}

export const authApi = {
  signup: (body: unknown) => apiJson<{ message: string; userId: string }>('/api/auth/signup', { body, anonymous: true }),
  login: (body: { email: string; password: string }) => apiJson<SessionAnswer>('/api/auth/login', { body, anonymous: true }),
  verify: (body: { userId: string; verificationCode: string }) => apiJson<SessionAnswer>('/api/auth/verify', { body, anonymous: true }),
  resend: (email: string) => apiJson<{ message: string }>('/api/auth/resend-verification', { body: { email }, anonymous: true }),
  forgotPassword: (email: string) => apiJson<{ message: string }>('/api/auth/forgot-password', { body: { email }, anonymous: true }),
  resetPassword: (body: { token: string; password: string; confirmPassword: string }) =>
    apiJson<{ message: string }>('/api/auth/reset-password', { body, anonymous: true }),
};

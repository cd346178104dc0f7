import { AccountRoutes, type LoginBody, type ResetPasswordBody, type SignupBody, type UserView, type VerifyBody } from '@render/contracts';
import type { Static } from 'typebox';
import { callRoute } from '../../lib/call-route.ts';

/** The account calls the auth screens make (docs/spec/calls.md), answered through the gateway; typed by their contracts. */
export interface SessionAnswer {
  message?: string;
  token: string;
  user: UserView;
}

const anonymous = { anonymous: true } as const;

export const authApi = {
  signup: (body: SignupBody) => callRoute(AccountRoutes.signup, { body }, anonymous),
  login: (body: Static<typeof LoginBody>): Promise<SessionAnswer> => callRoute(AccountRoutes.login, { body }, anonymous),
  verify: (body: Static<typeof VerifyBody>): Promise<SessionAnswer> => callRoute(AccountRoutes.verify, { body }, anonymous),
  resend: (email: string) => callRoute(AccountRoutes.resendVerification, { body: { email } }, anonymous),
  forgotPassword: (email: string) => callRoute(AccountRoutes.forgotPassword, { body: { email } }, anonymous),
  resetPassword: (body: Static<typeof ResetPasswordBody>) => callRoute(AccountRoutes.resetPassword, { body }, anonymous),
};

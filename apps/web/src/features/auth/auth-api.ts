import type { LoginBody, ResetPasswordBody, SignupBody, UserView, VerifyBody } from '@render/contracts';
import { AccountHeads } from '@render/contracts/route-heads';
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
  signup: (body: SignupBody) => callRoute(AccountHeads.signup, { body }, anonymous),
  login: (body: Static<typeof LoginBody>): Promise<SessionAnswer> => callRoute(AccountHeads.login, { body }, anonymous),
  verify: (body: Static<typeof VerifyBody>): Promise<SessionAnswer> => callRoute(AccountHeads.verify, { body }, anonymous),
  resend: (email: string) => callRoute(AccountHeads.resendVerification, { body: { email } }, anonymous),
  forgotPassword: (email: string) => callRoute(AccountHeads.forgotPassword, { body: { email } }, anonymous),
  resetPassword: (body: Static<typeof ResetPasswordBody>) => callRoute(AccountHeads.resetPassword, { body }, anonymous),
};

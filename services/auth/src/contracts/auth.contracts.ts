// Auth request/response contracts. They live here only while packages/contracts is being reworked by
// another change; move them to packages/contracts (next to the render contracts) once that lands, so the
// web app and the gateway's OpenAPI share them.
import { StringEnum, withMessages } from '@render/contracts';
import { type Static, Type } from '@sinclair/typebox';

// Spec §3 signup enums.
export const USAGE_SOURCES = ['personal', 'business', 'education', 'other'] as const;
export const REFERRAL_SOURCES = ['search_engine', 'social_media', 'friend', 'advertisement', 'other'] as const;
export const PLANNED_SERVICES = [
  'html2img',
  'svg2img',
  'website_screenshots',
  'code2img',
  'chartjs2img',
  'd3_charts2img',
  'highcharts2img',
] as const;

// Spec §5 and §9.
export const NAME_MIN = 2;
export const PASSWORD_MIN = 8;

export const Messages = {
  nameRequired: 'Name is required',
  nameTooShort: `Name must be at least ${NAME_MIN} characters`,
  emailInvalid: 'Invalid email address',
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordWeak: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  passwordsMismatch: 'Passwords must match',
  confirmRequired: 'Please confirm your password',
  usageSource: 'Please select how you plan to use our service',
  referralSource: 'Please select how you heard about us',
  plannedServices: 'Please select at least one service you plan to use',
  acceptTerms: 'You must agree to the terms and conditions',
  registered: 'Registration successful! Please check your email for verification code.',
  emailTaken: 'An account with this email already exists',
  invalidCredentials: 'Invalid email or password',
  unverified: 'Please verify your email before logging in',
  loginSuccess: 'Login successful!',
  resendSent: 'If an account with this email is awaiting verification, a new code has been sent.',
  resetRequested: 'If an account exists for this email, a password reset link has been sent.',
  resetDone: 'Your password has been reset. You can now log in.',
  resetInvalid: 'This password reset link is invalid or has expired. Please request a new one.',
  codeRequired: 'Verification code is required',
  codeExpired: 'This verification code has expired. Please request a new one.',
  codeLocked: 'Too many incorrect attempts. Please request a new verification code.',
  alreadyVerified: 'This account is already verified. Please log in.',
  verified: 'Email verified successfully!',
  tooManyRequests: 'Too many requests. Please try again later.',
} as const;

// Schemas check presence and shape with the spec's wording; rules a JSON schema cannot word well
// (trimmed emptiness, password strength, confirmation match, an empty service list) are checked in
// lib/signup-rules.ts so every message still comes from the server.
const requiredString = (message: string, maxLength: number) =>
  withMessages(Type.String({ minLength: 1, maxLength }), { required: message, type: message, minLength: message });

const Email = withMessages(Type.String({ minLength: 1, maxLength: 254, format: 'email' }), {
  required: Messages.emailRequired,
  type: Messages.emailInvalid,
  minLength: Messages.emailRequired,
  maxLength: Messages.emailInvalid,
  format: Messages.emailInvalid,
});

// 128 caps the work a single request can make scrypt do on a long input.
const Password = withMessages(Type.String({ minLength: 1, maxLength: 128 }), {
  required: Messages.passwordRequired,
  type: Messages.passwordRequired,
  minLength: Messages.passwordRequired,
  maxLength: 'Password must be at most 128 characters',
});

const ConfirmPassword = requiredString(Messages.confirmRequired, 128);

const oneOf = <const T extends readonly string[]>(values: T, message: string) =>
  withMessages(StringEnum(values), { required: message, type: message, enum: message });

export const SignupBody = Type.Object({
  name: withMessages(Type.String({ minLength: 1, maxLength: 100 }), {
    required: Messages.nameRequired,
    type: Messages.nameRequired,
    minLength: Messages.nameRequired,
    maxLength: 'Name must be at most 100 characters',
  }),
  email: Email,
  password: Password,
  confirmPassword: ConfirmPassword,
  company: Type.Optional(
    Type.Union([
      withMessages(Type.String({ maxLength: 200 }), { type: 'Company must be text', maxLength: 'Company is too long' }),
      Type.Null(),
    ]),
  ),
  usageSource: oneOf(USAGE_SOURCES, Messages.usageSource),
  referralSource: oneOf(REFERRAL_SOURCES, Messages.referralSource),
  plannedServices: withMessages(Type.Array(oneOf(PLANNED_SERVICES, Messages.plannedServices), { maxItems: PLANNED_SERVICES.length * 2 }), {
    required: Messages.plannedServices,
    type: Messages.plannedServices,
  }),
  acceptTerms: withMessages(Type.Unsafe<true>({ type: 'boolean', enum: [true] }), {
    required: Messages.acceptTerms,
    type: Messages.acceptTerms,
    enum: Messages.acceptTerms,
  }),
});
export type SignupBody = Static<typeof SignupBody>;

export const VerifyBody = Type.Object({
  userId: withMessages(Type.String({ format: 'uuid' }), {
    required: 'userId is required',
    type: 'userId must be a string',
    format: 'Invalid verification request',
  }),
  verificationCode: requiredString(Messages.codeRequired, 16),
});

export const EmailBody = Type.Object({ email: Email });

export const LoginBody = Type.Object({ email: Email, password: Password });

export const ResetPasswordBody = Type.Object({
  token: requiredString(Messages.resetInvalid, 200),
  password: Password,
  confirmPassword: ConfirmPassword,
});

export const ApiKeyVerifyBody = Type.Object({ apiKey: requiredString('apiKey is required', 200) });

export const ApiKeySignatureBody = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  message: Type.String({ minLength: 1, maxLength: 16_384 }),
  signature: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
});

/** Spec §3 user as the web app shows it. */
export const UserView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  company: Type.Union([Type.String(), Type.Null()]),
  accountType: StringEnum(['administrator', 'regular'] as const),
  verificationStatus: StringEnum(['verified', 'pending'] as const),
  memberSince: Type.String({ format: 'date-time' }),
  apiKey: Type.Union([Type.String(), Type.Null()]),
  plan: StringEnum(['free', 'pro'] as const),
});
export type UserView = Static<typeof UserView>;

export const MessageResponse = Type.Object({ success: Type.Literal(true), message: Type.String() });

export const SignupResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), userId: Type.String() });

export const SessionResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.Optional(Type.String()),
  token: Type.String(),
  user: UserView,
});

export const MeResponse = Type.Object({ success: Type.Literal(true), user: UserView });

export const ApiKeyResponse = Type.Object({ success: Type.Literal(true), apiKey: Type.String() });

export const ApiKeyOwnerResponse = Type.Object({
  userId: Type.String(),
  role: StringEnum(['user', 'admin'] as const),
  plan: StringEnum(['free', 'pro'] as const),
});

const Windows = Type.Object({ last24h: Type.Integer(), last7d: Type.Integer(), last30d: Type.Integer() });

export const AdminStatsResponse = Type.Object({
  success: Type.Literal(true),
  stats: Type.Object({
    totalUsers: Type.Integer(),
    newUsers: Windows,
    totalGenerations: Type.Integer(),
    generations: Windows,
  }),
});

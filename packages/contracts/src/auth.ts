// Account request/response contracts (docs/spec/entities.md, validation.md, limits.md): the auth service validates with them, the gateway
// documents its forwarded /api/auth/* calls with them, and the web app can share them.
import { type Static, Type } from 'typebox';
import { ErrorResponse } from './render.ts';
import { StringEnum, withMessages } from './schema-helpers.ts';

// docs/spec/entities.md signup enums.
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

/** The languages the web app is written in, and so the account's mails (verification, password reset). */
export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

// docs/spec/validation.md and limits.md.
export const NAME_MIN = 2;
export const PASSWORD_MIN = 8;

export const AuthMessages = {
  nameRequired: 'Name is required',
  nameTooShort: `Name must be at least ${NAME_MIN} characters`,
  nameTooLong: 'Name must be at most 100 characters',
  emailInvalid: 'Invalid email address',
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordTooLong: 'Password must be at most 128 characters',
  passwordWeak: 'Password must contain at least one uppercase letter, one lowercase letter, and one number',
  passwordsMismatch: 'Passwords must match',
  confirmRequired: 'Please confirm your password',
  usageSource: 'Please select how you plan to use our service',
  referralSource: 'Please select how you heard about us',
  plannedServices: 'Please select at least one service you plan to use',
  acceptTerms: 'You must agree to the terms and conditions',
  companyTooLong: 'Company is too long',
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
  verificationInvalid: 'Invalid verification request',
  codeExpired: 'This verification code has expired. Please request a new one.',
  codeLocked: 'Too many incorrect attempts. Please request a new verification code.',
  alreadyVerified: 'This account is already verified. Please log in.',
  verified: 'Email verified successfully!',
  tooManyRequests: 'Too many requests. Please try again later.',
  tooManyLogins: 'Too many login attempts. Please try again later.',
  invalidToken: 'Invalid or expired token',
  invalidApiKey: 'Invalid API key',
  sessionRequired: 'This call needs a session token (sign in): an API key can only read the account and its usage',
} as const;

// Schemas check presence and shape with the spec's wording; rules a JSON schema cannot word well
// (trimmed emptiness, password strength, confirmation match, an empty service list) are checked in
// lib/signup-rules.ts so every message still comes from the server.
const requiredString = (message: string, maxLength: number) =>
  withMessages(Type.String({ minLength: 1, maxLength }), { required: message, type: message, minLength: message });

const Email = withMessages(Type.String({ minLength: 1, maxLength: 254, format: 'email' }), {
  required: AuthMessages.emailRequired,
  type: AuthMessages.emailInvalid,
  minLength: AuthMessages.emailRequired,
  maxLength: AuthMessages.emailInvalid,
  format: AuthMessages.emailInvalid,
});

// 128 caps the work a single request can make scrypt do on a long input.
const Password = withMessages(Type.String({ minLength: 1, maxLength: 128 }), {
  required: AuthMessages.passwordRequired,
  type: AuthMessages.passwordRequired,
  minLength: AuthMessages.passwordRequired,
  maxLength: AuthMessages.passwordTooLong,
});

// A new password (signup, reset) follows docs/spec/validation.md, in the schema so the document and clients know the rule.
// Ajv checks allOf before a string's own keywords: presence, length and strength are allOf parts, in the
// order the web form reports them.
const NewPassword = withMessages(
  Type.String({
    maxLength: 128,
    description: `At least ${PASSWORD_MIN} characters, with an uppercase letter, a lowercase letter and a number`,
    allOf: [
      withMessages(Type.String({ minLength: 1 }), { minLength: AuthMessages.passwordRequired }),
      withMessages(Type.String({ pattern: `^[\\s\\S]{${PASSWORD_MIN},}$` }), { format: AuthMessages.passwordTooShort }),
      withMessages(Type.String({ pattern: '^(?=[\\s\\S]*[a-z])(?=[\\s\\S]*[A-Z])(?=[\\s\\S]*[0-9])' }), {
        format: AuthMessages.passwordWeak,
      }),
    ],
  }),
  {
    required: AuthMessages.passwordRequired,
    type: AuthMessages.passwordRequired,
    maxLength: AuthMessages.passwordTooLong,
  },
);

const ConfirmPassword = requiredString(AuthMessages.confirmRequired, 128);

const oneOf = <const T extends readonly string[]>(values: T, message: string) =>
  withMessages(StringEnum(values), { required: message, type: message, enum: message });

const LanguageField = withMessages(
  StringEnum(LANGUAGES, {
    description: "The language of the account's e-mails (verification code, password reset); the web app sends its own",
  }),
  { type: 'language must be "en" or "fr"', enum: 'language must be "en" or "fr"', required: 'language is required' },
);

export const SignupBody = Type.Object({
  /** Optional: without it the caller's Accept-Language decides (French if it ranks French first, else English). */
  language: Type.Optional(LanguageField),
  name: withMessages(Type.String({ minLength: 1, maxLength: 100 }), {
    required: AuthMessages.nameRequired,
    type: AuthMessages.nameRequired,
    minLength: AuthMessages.nameRequired,
    maxLength: AuthMessages.nameTooLong,
  }),
  email: Email,
  password: NewPassword,
  confirmPassword: ConfirmPassword,
  company: Type.Optional(
    Type.Union([
      withMessages(Type.String({ maxLength: 200 }), { type: 'Company must be text', maxLength: AuthMessages.companyTooLong }),
      Type.Null(),
    ]),
  ),
  usageSource: oneOf(USAGE_SOURCES, AuthMessages.usageSource),
  referralSource: oneOf(REFERRAL_SOURCES, AuthMessages.referralSource),
  plannedServices: withMessages(
    Type.Array(oneOf(PLANNED_SERVICES, AuthMessages.plannedServices), { maxItems: PLANNED_SERVICES.length * 2 }),
    {
      required: AuthMessages.plannedServices,
      type: AuthMessages.plannedServices,
    },
  ),
  acceptTerms: withMessages(Type.Unsafe<true>({ type: 'boolean', enum: [true] }), {
    required: AuthMessages.acceptTerms,
    type: AuthMessages.acceptTerms,
    enum: AuthMessages.acceptTerms,
  }),
});
export type SignupBody = Static<typeof SignupBody>;

export const VerifyBody = Type.Object({
  userId: withMessages(Type.String({ format: 'uuid' }), {
    required: 'userId is required',
    type: 'userId must be a string',
    format: AuthMessages.verificationInvalid,
  }),
  verificationCode: requiredString(AuthMessages.codeRequired, 16),
});

export const EmailBody = Type.Object({ email: Email });

export const LoginBody = Type.Object({ email: Email, password: Password });

export const ResetPasswordBody = Type.Object({
  token: requiredString(AuthMessages.resetInvalid, 200),
  password: NewPassword,
  confirmPassword: ConfirmPassword,
});

/** docs/spec/entities.md user as the web app shows it. */
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
  language: StringEnum(LANGUAGES, { description: "The language of the account's e-mails" }),
  renderLinksSignedOnly: Type.Boolean({ description: 'Render links without sig are refused (PUT /api/auth/render-links)' }),
});
export type UserView = Static<typeof UserView>;

/** The profile fields a signed-in user may change (PATCH /api/auth/me). */
export const UpdateProfileBody = Type.Object({ language: LanguageField });
export type UpdateProfileBody = Static<typeof UpdateProfileBody>;

export const MessageResponse = Type.Object({ success: Type.Literal(true), message: Type.String() });

export const SignupResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), userId: Type.String() });

export const SessionResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.Optional(Type.String()),
  token: Type.String(),
  user: UserView,
});

export const MeResponse = Type.Object({ success: Type.Literal(true), user: UserView });

export const TokenResponse = Type.Object({ success: Type.Literal(true), token: Type.String() });

/** Login with the right password on an account whose e-mail is not verified yet: the id lets the app offer a new code. */
export const UnverifiedLoginResponse = Type.Object({
  ...ErrorResponse.properties,
  code: Type.Literal('FORBIDDEN'),
  userId: Type.String(),
});

export const ApiKeyResponse = Type.Object({ success: Type.Literal(true), apiKey: Type.String() });

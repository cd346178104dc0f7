// Billing request/response contracts (docs/spec/entities.md Subscription, calls.md).
import { type TSchema, Type } from 'typebox';
import { StringEnum, withMessages } from './schema-helpers.ts';

/** What the auth service's billing calls answer (errors and confirmations), in the specification's words. */
export const BillingMessages = {
  notConfigured: 'Billing is not configured',
  providerUnavailable: 'The billing provider is unavailable. Please try again later.',
  priceUnavailable: 'This plan is not available in the selected currency',
  alreadySubscribed: 'You already have an active subscription. Use Manage billing to change it.',
  noBillingAccount: 'No billing account found. Upgrade to Pro first.',
  noSubscription: 'No active subscription found',
  alreadyCancelling: 'Subscription is already cancelled and ends at the end of the billing period',
  notCancelling: 'Only a cancelled subscription can be reactivated',
  periodEnded: 'The billing period has ended. Please upgrade again.',
  cancelled: 'Subscription cancelled successfully',
  reactivated: 'Subscription reactivated successfully',
} as const;

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const UpgradeBody = Type.Object(
  {
    interval: Type.Optional(
      withMessages(StringEnum(['month', 'year'] as const), {
        type: 'interval must be month or year',
        enum: 'interval must be month or year',
      }),
    ),
    /** Defaults from Accept-Language: French pays in euros, everyone else in dollars. */
    currency: Type.Optional(
      withMessages(StringEnum(['usd', 'eur'] as const), { type: 'currency must be usd or eur', enum: 'currency must be usd or eur' }),
    ),
  },
  { additionalProperties: false },
);

export const UpgradeResponse = Type.Object({ success: Type.Literal(true), url: Type.String(), sessionId: Type.String() });

export const PortalResponse = Type.Object({ success: Type.Literal(true), url: Type.String() });

export const CancelResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  /** Pro access is kept until this date (the end of the paid period). */
  accessUntil: Nullable(Type.String({ format: 'date-time' })),
});

export const PaymentMethodView = Type.Object({
  brand: Type.String(),
  last4: Type.String(),
  expMonth: Type.Integer(),
  expYear: Type.Integer(),
  isDefault: Type.Boolean(),
});

export const PaymentInfoResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    plan: StringEnum(['free', 'pro'] as const),
    status: Nullable(StringEnum(['active', 'cancelling', 'canceled', 'past_due'] as const)),
    /** In the currency's major unit (49 = 49 $ or 49 €). */
    price: Nullable(Type.Number()),
    currency: Nullable(Type.String()),
    interval: Nullable(StringEnum(['month', 'year'] as const)),
    nextBillingDate: Nullable(Type.String({ format: 'date-time' })),
    cancelAtPeriodEnd: Type.Boolean(),
    paymentMethods: Type.Array(PaymentMethodView),
    testMode: Type.Boolean({
      description: 'No real money moves: Stripe test keys, or the local Stripe stand-in of a development stack',
    }),
  }),
});

export const WebhookResponse = Type.Object({ received: Type.Literal(true), duplicate: Type.Optional(Type.Boolean()) });

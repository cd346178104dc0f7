// The tests' Stripe is the stand-in the auth service runs in development (src/stand-in): one implementation.
import { type StandInPrice, type StripeStandIn, startStripeStandIn } from '../../src/stand-in/stripe-stand-in.ts';

export type { RecordedRequest } from '../../src/stand-in/stripe-stand-in.ts';
export type FakeStripe = StripeStandIn;
export type FakePrice = StandInPrice;

/** The stand-in without its pages: session URLs are Stripe-like addresses, and tests complete checkouts themselves. */
export const startFakeStripe = (prices: Record<string, FakePrice>): Promise<FakeStripe> => startStripeStandIn({ prices });

import type { StandInPrice } from './stripe-stand-in.store.ts';

type Interval = StandInPrice['interval'];
type Currency = StandInPrice['currency'];

/** The ids `<prefix>_<interval>_<currency>` of the Pro prices, by interval then currency. */
export const proPriceIds = (prefix: string): Record<Interval, Record<Currency, string>> => ({
  month: { usd: `${prefix}_month_usd`, eur: `${prefix}_month_eur` },
  year: { usd: `${prefix}_year_usd`, eur: `${prefix}_year_eur` },
});

/** Pro at 49 a month or 490 a year, in dollars and euros (docs/spec/limits.md), under `proPriceIds(prefix)`. */
export function proPrices(prefix: string): Record<string, StandInPrice> {
  const ids = proPriceIds(prefix);
  const amounts: Record<Interval, number> = { month: 4900, year: 49000 };
  const prices: Record<string, StandInPrice> = {};
  for (const currency of ['usd', 'eur'] as const)
    for (const interval of ['month', 'year'] as const)
      prices[ids[interval][currency]] = { unit_amount: amounts[interval], currency, interval };
  return prices;
}

/** The service's STRIPE_PRICE_* settings naming those prices (what a test points the account service at). */
export function proPriceEnv(prefix: string): Record<string, string> {
  const ids = proPriceIds(prefix);
  return {
    STRIPE_PRICE_MONTHLY_USD: ids.month.usd,
    STRIPE_PRICE_YEARLY_USD: ids.year.usd,
    STRIPE_PRICE_MONTHLY_EUR: ids.month.eur,
    STRIPE_PRICE_YEARLY_EUR: ids.year.eur,
  };
}

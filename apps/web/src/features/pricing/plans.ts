/**
 * docs/spec/limits.md plans. Pro is 49 a month: dollars in English, euros in French. The Free plan's credits are the
 * contracts' FREE_PLAN_CREDITS (not imported: the landing page's bundle would take every schema with it);
 * pages show what GET /api/limits says (the launch period lifts them), this until it has answered.
 */
export const FREE_CREDITS_PER_30_DAYS = 50;
export const PRO_MONTHLY_PRICE = 49;

export const planCurrency = (language: string) => (language.startsWith('fr') ? 'EUR' : 'USD');

export function formatPrice(amount: number, language: string): string {
  return new Intl.NumberFormat(language.startsWith('fr') ? 'fr-FR' : 'en-US', {
    style: 'currency',
    currency: planCurrency(language),
    maximumFractionDigits: 0,
  }).format(amount);
}

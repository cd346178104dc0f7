import type { Language } from '@render/contracts';
import { escapeHtml } from '../lib/html.ts';
import type { Json } from './stripe-stand-in.store.ts';

// The pages Stripe hosts (Checkout, the billing portal), as the development stand-in shows them: plain
// server-rendered HTML in the reader's language, every one marked as test mode.

const TEXTS = {
  en: {
    badge: 'Test mode',
    notice: 'This is a local stand-in for Stripe: no card is charged and no money moves.',
    checkoutTitle: 'Subscribe to Render API Pro',
    perMonth: 'per month',
    perYear: 'per year',
    card: 'Test card 4242 4242 4242 4242',
    pay: 'Subscribe (test mode)',
    back: 'Cancel and go back',
    paid: 'This checkout is already complete.',
    portalTitle: 'Manage your subscription',
    renews: (date: string) => `Renews on ${date}`,
    ends: (date: string) => `Ends on ${date}`,
    cancel: 'Cancel plan',
    renew: 'Renew plan',
    none: 'No active subscription.',
    returnToApp: 'Return to Render API',
    gone: 'This page does not exist (any more).',
  },
  fr: {
    badge: 'Mode test',
    notice: "Ceci est une doublure locale de Stripe : aucune carte n'est débitée, aucun argent ne circule.",
    checkoutTitle: "S'abonner à Render API Pro",
    perMonth: 'par mois',
    perYear: 'par an',
    card: 'Carte de test 4242 4242 4242 4242',
    pay: "S'abonner (mode test)",
    back: 'Annuler et revenir',
    paid: 'Ce paiement est déjà terminé.',
    portalTitle: 'Gérer votre abonnement',
    renews: (date: string) => `Renouvelé le ${date}`,
    ends: (date: string) => `Prend fin le ${date}`,
    cancel: "Résilier l'offre",
    renew: "Renouveler l'offre",
    none: 'Aucun abonnement actif.',
    returnToApp: 'Revenir à Render API',
    gone: "Cette page n'existe pas (ou plus).",
  },
} as const;

const locale = (language: Language) => (language === 'fr' ? 'fr-FR' : 'en-US');

function layout(language: Language, title: string, body: string): string {
  const t = TEXTS[language];
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ${t.badge}</title></head>
<body style="margin:0;padding:32px 16px;background:#f4f4f5;font-family:system-ui,Arial,sans-serif;color:#18181b">
<main style="max-width:440px;margin:0 auto;padding:24px;background:#fff;border-radius:10px;border:1px solid #e4e4e7">
<p><strong data-testid="test-mode" style="display:inline-block;padding:2px 8px;border-radius:999px;background:#fef3c7;color:#92400e;font-size:13px">${t.badge}</strong></p>
<p style="font-size:13px;color:#52525b">${t.notice}</p>
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

const button = (label: string, action = '') =>
  `<form method="post"${action ? ` action="${escapeHtml(action)}"` : ''}><button type="submit" style="width:100%;padding:10px;border:0;border-radius:6px;background:#4f46e5;color:#fff;font-size:15px;font-weight:600;cursor:pointer">${escapeHtml(label)}</button></form>`;
const link = (label: string, href: string) =>
  `<p style="margin-top:16px"><a href="${escapeHtml(href)}" style="color:#4338ca">${escapeHtml(label)}</a></p>`;

function money(price: Json, language: Language): string {
  const amount = Number(price.unit_amount) / 100;
  return new Intl.NumberFormat(locale(language), { style: 'currency', currency: String(price.currency).toUpperCase() }).format(amount);
}

export function checkoutPage(session: Json, price: Json, language: Language): string {
  const t = TEXTS[language];
  const interval = (price.recurring as { interval?: string } | undefined)?.interval === 'year' ? t.perYear : t.perMonth;
  const body =
    session.status === 'open'
      ? `<p style="font-size:28px;font-weight:600;margin:8px 0" data-testid="amount">${escapeHtml(money(price, language))} <span style="font-size:14px;font-weight:400;color:#52525b">${interval}</span></p>
<p style="font-size:14px">${t.card}</p>
${button(t.pay)}
${link(t.back, String(session.cancel_url))}`
      : `<p>${t.paid}</p>${link(t.returnToApp, String(session.cancel_url))}`;
  return layout(language, t.checkoutTitle, body);
}

export function portalPage(portal: Json, subscriptions: Json[], language: Language): string {
  const t = TEXTS[language];
  const date = (seconds: number) => new Intl.DateTimeFormat(locale(language), { dateStyle: 'long' }).format(new Date(seconds * 1000));
  const rows = subscriptions.map((sub) => {
    const item = (sub.items as { data: Array<{ price: Json; current_period_end: number }> }).data[0]!;
    const ending = sub.cancel_at_period_end === true;
    return `<section style="padding:12px 0;border-top:1px solid #e4e4e7">
<p style="margin:0 0 4px;font-weight:600">Render API Pro · ${escapeHtml(money(item.price, language))}</p>
<p style="margin:0 0 12px;color:#52525b" data-testid="subscription-state">${escapeHtml(ending ? t.ends(date(item.current_period_end)) : t.renews(date(item.current_period_end)))}</p>
${button(ending ? t.renew : t.cancel, `/p/session/${portal.id}/${ending ? 'renew' : 'cancel'}`)}
</section>`;
  });
  return layout(language, t.portalTitle, `${rows.join('\n') || `<p>${t.none}</p>`}\n${link(t.returnToApp, String(portal.return_url))}`);
}

export function donePage(language: Language): string {
  return layout(language, TEXTS[language].gone, '');
}

import { type RenderLinkKind, signRenderUrl } from '@render/contracts/signed-render-link';
import { Check, Link2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';

/** Fields a render link does not take: it answers the image itself, at once, cached for its ttl. */
const NOT_IN_LINKS = new Set(['output', 'outputType', 'cache', 'webhook']);
/** A day: the longest the gateway keeps a link's image, and what an embedded image usually wants. */
const LINK_TTL_SECONDS = 86_400;

/**
 * "Copy image URL": the playground's request as a render link (GET /api/render/{kind}), signed in this browser
 * with the signed-in user's own API key, for <img src> anywhere. Always signed: the key itself never goes in the
 * link (only its SHA-256), so it works whether or not the account requires signed links.
 */
export function CopyImageUrl({
  kind,
  body,
  origin,
  apiKey,
  disabled,
}: {
  kind: RenderLinkKind;
  body: Record<string, unknown>;
  origin: string;
  apiKey: string | null;
  disabled: boolean;
}) {
  const { t } = useTranslation('playground');
  const common = useTranslation().t;
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!apiKey) return;
    try {
      const linkBody = Object.fromEntries(Object.entries(body).filter(([name]) => !NOT_IN_LINKS.has(name)));
      const url = await signRenderUrl({ baseUrl: origin, apiKey, kind, body: linkBody, ttl: LINK_TTL_SECONDS });
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
      toast.success(t('imageUrl.copied'));
    } catch {
      toast.error(common('copy.failed'));
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button variant="secondary" onClick={copy} disabled={disabled || !apiKey} data-testid="copy-image-url">
        {copied ? <Check className="size-4" aria-hidden /> : <Link2 className="size-4" aria-hidden />}
        {t('imageUrl.copy')}
      </Button>
      <p className="text-sm text-zinc-600">{apiKey ? t('imageUrl.hint') : t('imageUrl.signIn')}</p>
    </div>
  );
}

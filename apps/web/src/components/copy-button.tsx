import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useMessageText } from '../i18n/use-message.ts';

const TONES = {
  // On dark code panels.
  dark: 'rounded-md px-2 py-1 text-xs text-zinc-300 hover:bg-zinc-800 hover:text-white',
  // Next to other buttons on a light surface.
  light: 'rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm text-zinc-800 hover:bg-zinc-50',
};

/** Copies `text` and confirms with a toast (every copy action does, per the design brief). */
export function CopyButton({
  text,
  toastMessage,
  label,
  tone = 'dark',
  className = '',
}: {
  text: string;
  toastMessage: string;
  label?: string;
  tone?: keyof typeof TONES;
  className?: string;
}) {
  const { t } = useTranslation();
  const message = useMessageText();
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
      toast.success(message(toastMessage));
    } catch {
      // The browser's own reason (a DOMException in English) says nothing a reader can act on.
      toast.error(t('copy.failed'));
    }
  };
  return (
    <button type="button" onClick={copy} className={`inline-flex items-center gap-1.5 font-medium ${TONES[tone]} ${className}`}>
      {copied ? <Check className="size-3.5" aria-hidden /> : <Copy className="size-3.5" aria-hidden />}
      {label ?? (copied ? t('copy.copied') : t('copy.copy'))}
    </button>
  );
}

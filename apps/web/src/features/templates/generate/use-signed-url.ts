import { signTemplateUrl } from '@render/contracts/signed-template-url';
import { useEffect, useMemo, useState } from 'react';
import type { TemplateView } from '../template-api.ts';
import { changedVariables, type GenerateValues, usesQuality } from './generate-values.ts';

/**
 * The signed image URL for the current values, signed in the browser with the owner's API key ('' until
 * it is made, or when it cannot be). Only the owner with a key can sign; the key never leaves the browser.
 */
export function useSignedUrl(template: TemplateView, values: GenerateValues, apiKey: string | null) {
  const [url, setUrl] = useState('');
  const canSign = template.isOwner && Boolean(apiKey);
  const variables = useMemo(() => changedVariables(template, values.variables), [template, values.variables]);
  useEffect(() => {
    if (!canSign || !apiKey) return;
    let live = true;
    const quality = usesQuality(values.format) ? Number(values.quality) : undefined;
    signTemplateUrl({ baseUrl: window.location.origin, templateId: template.id, apiKey, variables, format: values.format, quality })
      .then((signed) => live && setUrl(signed))
      .catch(() => live && setUrl(''));
    return () => {
      live = false;
    };
  }, [canSign, apiKey, template.id, variables, values.format, values.quality]);
  return url;
}

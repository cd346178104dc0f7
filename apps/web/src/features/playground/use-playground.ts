import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useRenderRun } from '../../components/render-form/use-render-run.ts';
import { type RenderedImage, startRender } from '../../lib/render-api.ts';
import { useSession } from '../../lib/session/session.context.tsx';
import type { AcceptedRender } from './async-result.tsx';
import type { PlaygroundDefinition, Values } from './playground-definitions.ts';
import { buildRequest, decodeValues, encodeValues, type Problems } from './playground-state.ts';
import { useCodeCatalog } from './use-code-catalog.ts';

/** Values ↔ `?o=` so a link reproduces the render (debounced: editors change on every key). */
export function useShareableValues(definition: PlaygroundDefinition) {
  const search = useSearch({ strict: false }) as { o?: string };
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(() => decodeValues(definition, search.o));
  useEffect(() => {
    const timer = setTimeout(() => {
      const o = encodeValues(definition, values);
      if (o !== search.o) void navigate({ to: '.', search: (o ? { o } : {}) as never, replace: true });
    }, 400);
    return () => clearTimeout(timer);
  }, [values, definition, navigate, search.o]);
  return [values, setValues] as const;
}

/** The options' values, what the user has touched, and the problems to show (all of them once Generate was pressed). */
export function usePlaygroundValues(definition: PlaygroundDefinition, webhook: string | undefined) {
  const [values, setValues] = useShareableValues(definition);
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const { body, problems } = useMemo(() => buildRequest(definition, values, { webhook }), [definition, values, webhook]);
  const visibleProblems: Problems = Object.fromEntries(Object.entries(problems).filter(([name]) => showAll || touched.has(name)));
  const change = (name: string, value: string | boolean) => {
    setValues((current) => {
      const next = { ...current, [name]: value };
      return definition.onChange ? definition.onChange(name, next) : next;
    });
  };
  const blur = (name: string) => setTouched((current) => new Set(current).add(name));
  const showAllProblems = useCallback(() => setShowAll(true), []);
  return { values, body, problems, visibleProblems, change, blur, showAllProblems };
}

/**
 * A converter playground's state: the shareable values, "Use my API key" and the webhook (signed-in
 * callers only), and the render, answered with an image or, for a webhook, an accepted render to follow.
 */
export function usePlayground(definition: PlaygroundDefinition) {
  const session = useSession();
  const [useApiKey, setUseApiKey] = useState(false);
  const [signInOpen, setSignInOpen] = useState(false);
  const [image, setImage] = useState<RenderedImage | null>(null);
  // Not among the shareable values: a webhook belongs to the signed-in account, not to a link.
  const [webhook, setWebhook] = useState('');
  const [accepted, setAccepted] = useState<AcceptedRender | null>(null);
  const catalog = useCodeCatalog(definition.id === 'code');

  const signedIn = session.status === 'signedIn';
  const apiKey = signedIn ? session.user.apiKey : null;
  // A webhook render needs the account's credentials: the field works only while the request carries the key.
  const webhookEnabled = signedIn && useApiKey && Boolean(apiKey);
  const form = usePlaygroundValues(definition, webhookEnabled ? webhook : undefined);
  const { busy, run } = useRenderRun(definition.failureMessage);
  const { problems, body, showAllProblems } = form;

  const toggleApiKey = (checked: boolean) => {
    if (checked && session.status !== 'signedIn') {
      setSignInOpen(true);
      return;
    }
    setUseApiKey(checked);
  };

  const generate = useCallback(async () => {
    showAllProblems();
    if (Object.keys(problems).length > 0) return;
    await run(async (current) => {
      const key = useApiKey && apiKey ? apiKey : undefined;
      const outcome = await startRender({
        route: definition.route,
        body,
        outputField: definition.outputField,
        apiKey: key,
        signal: current.signal,
      });
      if (outcome.kind === 'accepted') {
        setImage(null);
        setAccepted({ render: outcome.render, apiKey: key });
      } else {
        setAccepted(null);
        setImage(outcome.image);
      }
    });
  }, [showAllProblems, problems, run, definition, body, useApiKey, apiKey]);

  /** Selects whose list comes from the API (the code page's languages and themes). */
  const optionsFor = (name: string) =>
    definition.id === 'code' && catalog.data
      ? name === 'language'
        ? catalog.data.languages
        : name === 'theme'
          ? catalog.data.themes
          : undefined
      : undefined;

  return {
    ...form,
    signedIn,
    apiKey,
    useApiKey,
    toggleApiKey,
    signInOpen,
    setSignInOpen,
    webhook: { value: webhook, enabled: webhookEnabled, set: setWebhook },
    optionsFor,
    generate,
    busy,
    image,
    accepted,
  };
}

export type PlaygroundState = ReturnType<typeof usePlayground>;

import { createMemoryHistory } from '@tanstack/react-router';
import i18next from 'i18next';
import { type ReactNode, StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { initReactI18next } from 'react-i18next';
import { catalogBackend, LANGUAGES, type Language, NAMESPACES } from '../i18n/i18n.ts';
import { createSessionStore } from '../lib/session/session.store.ts';
import { type PageHead, serverHead } from '../lib/use-page-title.ts';
import { App } from './app.tsx';
import { createAppRouter } from './router.tsx';

/**
 * The build's prerender (scripts/prerender.mjs) runs this bundle in Node: each public page is rendered by the
 * same components as in the browser, for one language, and the browser hydrates that HTML. The session is the
 * one a visitor has before signing in ("loading": the header's sign-in links), as the browser's first render.
 */
export async function initPrerender() {
  await i18next
    .use(initReactI18next)
    .use(catalogBackend())
    .init({
      lng: 'en',
      supportedLngs: LANGUAGES,
      fallbackLng: 'en',
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      // Every catalog of every language is loaded here, up front: a render never waits for one.
      preload: [...LANGUAGES],
      ns: NAMESPACES,
      react: { useSuspense: false },
    });
}

export interface PrerenderedPage {
  html: string;
  head: PageHead | undefined;
  status: 'ok' | 'notFound';
}

/** Renders `path` in `language` to HTML once every lazy part (route chunk, catalog, Markdown) has loaded. */
export async function prerenderPage(path: string, language: Language, origin: string): Promise<PrerenderedPage> {
  await i18next.changeLanguage(language);
  serverHead.origin = origin;
  serverHead.head = undefined;
  const session = createSessionStore();
  const router = createAppRouter({ session }, createMemoryHistory({ initialEntries: [path] }));
  await router.load();
  const notFound = router.state.matches.some((match) => match.status !== 'success');
  const app = (
    <StrictMode>
      <App session={session} router={router} />
    </StrictMode>
  );
  // The first pass loads what suspends (the route's chunk, its catalogs, its Markdown); a later one finds it all
  // loaded, so every Suspense boundary is written complete in place. A boundary completed later would need
  // React's inline scripts to show, which the site's CSP (no inline scripts) blocks.
  let html = await renderToHtml(app);
  for (let pass = 2; html.includes('<template id="B:'); pass += 1) {
    if (pass > 4) throw new Error(`prerender: ${path} (${language}) still suspends after ${pass - 1} passes`);
    html = await renderToHtml(app);
    if (process.env.PRERENDER_DEBUG)
      console.log(
        path,
        language,
        pass,
        router.state.matches.map((m) => [m.routeId, m.status]),
        router.state.status,
      );
  }
  return { html, head: serverHead.head, status: notFound ? 'notFound' : 'ok' };
}

async function renderToHtml(app: ReactNode): Promise<string> {
  // progressiveChunkSize: React moves a boundary bigger than this (12.8 KB by default) out of place, to be put
  // back by an inline script; a static page wants every boundary where it stands.
  // An error inside a Suspense boundary does not stop the render: React writes the boundary's fallback and
  // leaves it to the browser (error 419 there, and the page drawn by JavaScript after all). Fail the build.
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(app, {
    progressiveChunkSize: Number.POSITIVE_INFINITY,
    onError: (error) => {
      errors.push(error);
    },
  });
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk));
  if (errors.length) throw new Error('prerender: a part of the page failed on the server', { cause: errors[0] });
  // Inline scripts (React's and the router's scroll restoration) are server-only extras the CSP would refuse
  // and the browser's first render does not draw: dropped, so hydration finds exactly the app's own elements.
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/<script\b(?![^>]*\bsrc=)[^>]*>[\s\S]*?<\/script>/g, '');
}

import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, type RouterHistory } from '@tanstack/react-router';
import i18next from 'i18next';
import type { ComponentType } from 'react';
import { ErrorPage } from '../features/errors/error-page.tsx';
import { NotFoundPage } from '../features/errors/not-found.page.tsx';
import { RootLayout } from '../layout/root-layout.tsx';
import type { SessionStore } from '../lib/session/session.store.ts';

export interface RouterContext {
  session: SessionStore;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
  errorComponent: ErrorPage,
});

type PageModule = Record<string, unknown>;

/**
 * A page's chunk with TanStack Query beside it, the page inside the app's query client (`withQueryClient`): every
 * page but the landing page, whose first load (issue 28: at most 120 KB gzipped) has no query to make.
 */
const withQuery = (load: () => Promise<PageModule>, exportName: string) => async (): Promise<PageModule> => {
  const [module, { withQueryClient }] = await Promise.all([load(), import('./with-query-client.tsx')]);
  return { [exportName]: withQueryClient(module[exportName] as ComponentType) };
};

type PageLoader = (context: { preload: boolean; location: { search: unknown } }) => void;

// Every page is its own chunk: the landing page loads none of the playgrounds, docs or blog code.
const page = (path: string, load: () => Promise<PageModule>, exportName: string, options: { query?: boolean; loader?: PageLoader } = {}) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path,
    component: lazyRouteComponent(options.query === false ? load : withQuery(load, exportName), exportName),
    ...(options.loader ? { loader: options.loader } : {}),
  });

/**
 * The templates list in the browser (not the prerender): its catalogs load beside its code; and on the document's
 * first load (not a hover's preload, not once the app is live, when the query client may already hold the list) a
 * visitor's list is asked for then too, rather than after hydration (issue 28: its cards are the page's largest
 * paint). Nothing is awaited: the page hydrates as soon as its code is there.
 */
const templateListLoader: PageLoader = ({ preload, location }) => {
  if (typeof document === 'undefined') return;
  // Its catalogs too: the page asks for them only when it first renders, and its content waits for them.
  void i18next.loadNamespaces(['templates', 'messages', 'errors']);
  if (preload || document.documentElement.hasAttribute('data-hydrated')) return;
  void import('../features/templates/list/early-list.ts').then((early) => early.startEarlyList(location.search as never));
};

const playground = () => import('../features/playground/playground-pages.tsx');
const templates = (name: 'list' | 'editor' | 'generate') => () => import(`../features/templates/template-${name}.page.tsx`);
const dashboard = () => import('../features/dashboard/dashboard.page.tsx');
const auth = (name: string) => () => import(`../features/auth/${name}.page.tsx`);
const contentPage = (slug: string) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path: `/${slug}`,
    staticData: { contentSlug: slug },
    component: lazyRouteComponent(
      withQuery(() => import('../features/content/content.page.tsx'), 'ContentPage'),
      'ContentPage',
    ),
  });

const routes = [
  page('/', () => import('../features/landing/landing.page.tsx'), 'LandingPage', { query: false }),
  page('/login', auth('login'), 'LoginPage'),
  page('/signup', auth('signup'), 'SignupPage'),
  page('/verify', auth('verify'), 'VerifyPage'),
  page('/forgot-password', auth('forgot-password'), 'ForgotPasswordPage'),
  page('/reset-password', auth('reset-password'), 'ResetPasswordPage'),
  page('/docs', () => import('../features/docs/docs.page.tsx'), 'DocsPage'),
  page('/blog', () => import('../features/blog/blog-list.page.tsx'), 'BlogListPage'),
  page('/blog/$slug', () => import('../features/blog/blog-article.page.tsx'), 'BlogArticlePage'),
  page('/html-to-image', playground, 'HtmlPlaygroundPage'),
  page('/svg-to-image', playground, 'SvgPlaygroundPage'),
  page('/chart-to-image', playground, 'ChartPlaygroundPage'),
  page('/chart-to-image/chartjs', playground, 'ChartJsPlaygroundPage'),
  page('/chart-to-image/d3', playground, 'D3PlaygroundPage'),
  page('/chart-to-image/highcharts', playground, 'HighchartsPlaygroundPage'),
  page('/code-to-image', playground, 'CodePlaygroundPage'),
  page('/screenshot', playground, 'ScreenshotPlaygroundPage'),
  page('/pricing', () => import('../features/pricing/pricing.page.tsx'), 'PricingPage'),
  page('/template/list', templates('list'), 'TemplateListPage', { loader: templateListLoader }),
  page('/template/create', templates('editor'), 'TemplateCreatePage'),
  page('/template/edit/$id', templates('editor'), 'TemplateEditPage'),
  page('/template/generate', templates('generate'), 'TemplateGenerateIndexPage'),
  page('/template/generate/$id', templates('generate'), 'TemplateGeneratePage'),
  page('/image/generate', templates('generate'), 'ImageGenerateRedirect'),
  ...['about', 'contact', 'terms', 'privacy', 'cookies'].map(contentPage),
  page('/dashboard', dashboard, 'DashboardPage'),
  page('/dashboard/api-key', dashboard, 'DashboardApiKeyPage'),
  page('/dashboard/usage', dashboard, 'DashboardUsagePage'),
  page('/dashboard/billing', dashboard, 'DashboardBillingPage'),
  page('/dashboard/admin', dashboard, 'DashboardAdminPage'),
];

const routeTree = rootRoute.addChildren(routes);

/** `history`: the prerender passes a memory history at the page's path; the browser uses its own. */
export function createAppRouter(context: RouterContext, history?: RouterHistory) {
  return createRouter({
    routeTree,
    context,
    ...(history ? { history } : {}),
    defaultPreload: 'intent',
    scrollRestoration: true,
    defaultNotFoundComponent: NotFoundPage,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
  interface StaticDataRouteOption {
    contentSlug?: string;
  }
}

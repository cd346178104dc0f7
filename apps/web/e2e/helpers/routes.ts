/** Every public route of docs/spec/screens.md (and the footer's pages), with a name for its screenshots. */
export const PUBLIC_ROUTES = [
  { path: '/', name: 'landing' },
  { path: '/login', name: 'login' },
  { path: '/signup', name: 'signup' },
  { path: '/verify?userId=00000000-0000-4000-8000-000000000000&email=ada%40example.com', name: 'verify' },
  { path: '/forgot-password', name: 'forgot-password' },
  { path: '/reset-password?token=abc', name: 'reset-password' },
  { path: '/docs', name: 'docs' },
  { path: '/blog', name: 'blog' },
  { path: '/html-to-image', name: 'html-to-image' },
  { path: '/svg-to-image', name: 'svg-to-image' },
  { path: '/chart-to-image', name: 'chart-to-image' },
  { path: '/chart-to-image/chartjs', name: 'chartjs' },
  { path: '/chart-to-image/d3', name: 'd3' },
  { path: '/chart-to-image/highcharts', name: 'highcharts' },
  { path: '/code-to-image', name: 'code-to-image' },
  { path: '/screenshot', name: 'screenshot' },
  { path: '/pricing', name: 'pricing' },
  { path: '/about', name: 'about' },
  { path: '/contact', name: 'contact' },
  { path: '/terms', name: 'terms' },
  { path: '/privacy', name: 'privacy' },
  { path: '/cookies', name: 'cookies' },
  { path: '/no-such-page', name: 'not-found' },
] as const;

/** The pages whose screenshots are kept for both languages and widths. */
export const MAIN_PAGES = ['/', '/html-to-image', '/chart-to-image/chartjs', '/docs', '/blog', '/signup', '/pricing'];

/** The header's navigation (docs/spec/screens.md), shared by the desktop bar and the mobile menu. */
export interface NavLink {
  to: string;
  labelKey: string;
}
export interface NavGroup {
  labelKey: string;
  id: string;
  items: NavLink[];
}
export type NavItem = NavLink | NavGroup;

/** The label (catalog key) of each page the header or the footer links to. */
const PAGE_LABELS = {
  '/html-to-image': 'nav.htmlToImage',
  '/svg-to-image': 'nav.svgToImage',
  '/chart-to-image': 'nav.chartToImage',
  '/chart-to-image/chartjs': 'nav.chartjs',
  '/chart-to-image/d3': 'nav.d3',
  '/chart-to-image/highcharts': 'nav.highcharts',
  '/code-to-image': 'nav.codeToImage',
  '/screenshot': 'nav.screenshot',
  '/template/list': 'nav.templates',
  '/docs': 'nav.docs',
  '/blog': 'nav.blog',
  '/about': 'footer.about',
  '/pricing': 'footer.pricing',
  '/contact': 'footer.contact',
  '/terms': 'footer.terms',
  '/privacy': 'footer.privacy',
  '/cookies': 'footer.cookies',
} as const;

/** Links to these pages, in this order, each with its label. */
export const pageLinks = (...paths: Array<keyof typeof PAGE_LABELS>): NavLink[] => paths.map((to) => ({ to, labelKey: PAGE_LABELS[to] }));

export const NAV_ITEMS: NavItem[] = [
  ...pageLinks('/html-to-image'),
  { id: 'svg', labelKey: 'nav.svg', items: pageLinks('/svg-to-image', '/template/list') },
  { id: 'chart', labelKey: 'nav.chart', items: pageLinks('/chart-to-image/chartjs', '/chart-to-image/d3', '/chart-to-image/highcharts') },
  ...pageLinks('/code-to-image', '/screenshot', '/docs', '/blog'),
];

export const isGroup = (item: NavItem): item is NavGroup => 'items' in item;

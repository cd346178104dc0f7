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

export const NAV_ITEMS: NavItem[] = [
  { to: '/html-to-image', labelKey: 'nav.htmlToImage' },
  {
    id: 'svg',
    labelKey: 'nav.svg',
    items: [
      { to: '/svg-to-image', labelKey: 'nav.svgToImage' },
      { to: '/template/list', labelKey: 'nav.templates' },
    ],
  },
  {
    id: 'chart',
    labelKey: 'nav.chart',
    items: [
      { to: '/chart-to-image/chartjs', labelKey: 'nav.chartjs' },
      { to: '/chart-to-image/d3', labelKey: 'nav.d3' },
      { to: '/chart-to-image/highcharts', labelKey: 'nav.highcharts' },
    ],
  },
  { to: '/code-to-image', labelKey: 'nav.codeToImage' },
  { to: '/screenshot', labelKey: 'nav.screenshot' },
  { to: '/docs', labelKey: 'nav.docs' },
  { to: '/blog', labelKey: 'nav.blog' },
];

export const isGroup = (item: NavItem): item is NavGroup => 'items' in item;
